import { describe, expect } from 'vitest';
import { getUserBalances } from '@updown/wallet';
import type { Random } from '../harness/random';
import { depositReal, signUp, type Account, type PlaceBody } from '../harness/races-accounts';
import type { Connections } from '../harness/races-http';
import { moneyByType, moneyMoved, movements, postingsOf } from '../harness/races-ledger';
import { returnOf, sum, type ModelTrade } from '../harness/races-model';
import type { RacePlatform } from '../harness/races-platform';
import {
  expectAnswer,
  expectCleanRound,
  modelOf,
  pendingCount,
  placeRequest,
  range,
  sleep,
  tradesOf,
  waitUntil,
  wallet,
  type TradeRow,
} from '../harness/races-support';
import { BONUS_JOB_INTERVAL_MS, PAIR, scenario } from '../harness/races-scenario';

describe('a bonus cancel racing the settlement of bonus-funded trades', () => {
  scenario(
    'forfeits every bonus cent to the pool in either order and pays the cash share as cash',
    20,
    async () => bonusCancelRound,
    4,
  );
});

/**
 * A trader with a bonus stakes all cash and some bonus on UP trades that expire together; as the
 * tick that makes them due is published, one to four connections cancel the bonus. Whichever
 * commits first, every bonus cent ends in the bonus pool (at the cancel, or swept there when a
 * bonus stake settles after it), the cash share of each return is cash, and turnover counts only
 * the trades settled while the bonus was active.
 */
async function bonusCancelRound(p: RacePlatform, connections: Connections, rng: Random): Promise<void> {
  const trader = await signUp(p, 'Bonus');
  const before = await moneyByType(p.db);
  const depositCents = rng.int(2_000, 4_000);
  const bonusCents = Math.floor(depositCents / 2);
  // At most 20% of the bonus, and at most 17 trades: enough to spend all cash and some bonus.
  const stakeCents = rng.int(Math.max(100, Math.ceil(depositCents / 14)), Math.floor(bonusCents / 5));
  const count = Math.floor(depositCents / stakeCents) + rng.int(1, 3);
  await depositReal(p, trader, depositCents);
  const bonus = await p.db
    .selectFrom('bonuses')
    .selectAll()
    .where('user_id', '=', trader.id)
    .executeTakeFirstOrThrow();
  expect(bonus.amount_cents).toBe(bonusCents);
  await p.freshTick(PAIR);
  const body: PlaceBody = {
    pair: PAIR,
    direction: 'UP',
    amount: stakeCents / 100,
    duration: 60,
    account_type: 'real',
  };
  const placed = await connections.all(range(count).map(() => placeRequest(trader, body)));
  expect(
    placed.map((a) => a.status),
    placed.map((a) => a.text).join('\n'),
  ).toEqual(range(count).map(() => 201));
  const ids = placed.map((answer) => answer.body!.id);
  const staked = await tradesOf(p.db, ids);
  expect(sum(staked, (t) => t.stake_bonus_cents)).toBe(count * stakeCents - depositCents);

  const delaysMs = range(rng.int(1, 4)).map(() => rng.int(0, 30));
  await p.passExpiry(PAIR, Math.max(...staked.map((t) => t.expiry_at_ms)));
  const answers = await Promise.all(
    delaysMs.map(async (delayMs, i) => {
      await sleep(delayMs);
      return connections.send(i, (api) =>
        api.send('post', '/api/wallet/cancel-bonus', undefined, { token: trader.token }),
      );
    }),
  );
  expect(
    answers.filter((a) => a.status === 200).length,
    answers.map((a) => `${a.status} ${a.text}`).join('\n'),
  ).toBe(1);
  for (const answer of answers.filter((a) => a.status !== 200)) {
    expectAnswer(answer, 400, { detail: 'No active bonus', code: 'NO_ACTIVE_BONUS' });
  }
  await waitUntil('the trades to settle', async () => (await pendingCount(p.db, ids)) === 0);
  // A bonus stake settled after the cancel comes back to `bonus`; the expiry job's next run sweeps it.
  await waitUntil(
    'the bonus balance to return to the pool',
    async () => (await getUserBalances(p.db, trader.id)).bonus === 0,
    () => p.clock.advance(BONUS_JOB_INTERVAL_MS),
  );

  const rows = await tradesOf(p.db, ids);
  const trades = rows.map(modelOf);
  await expectBonusForfeited(p, trader, bonus.id, bonusCents, rows, trades);
  const cashBack = sum(trades, (t) => returnOf(t).toCashCents);
  expect(await getUserBalances(p.db, trader.id)).toEqual(wallet({ real: cashBack }));
  // Nothing for the bonus pool: what it credited came back, stakes and winnings alike.
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({
      payments_clearing: -depositCents,
      real: cashBack,
      house_real: sum(trades, (t) => t.stakeCashCents - returnOf(t).toCashCents),
    }),
  );
  await expectCleanRound(p);
}

/**
 * Settlement batches commit one after another, in `settled_at_ms` order, and the cancel fell before,
 * between or after them: the bonus row's turnover says where (it counts the trades settled before
 * the cancel). The forfeit then took the unstaked bonus plus the bonus share returned by those
 * trades; the sweep took the bonus share of the rest.
 */
async function expectBonusForfeited(
  p: RacePlatform,
  trader: Account,
  bonusId: string,
  bonusCents: number,
  rows: readonly TradeRow[],
  trades: readonly ModelTrade[],
): Promise<void> {
  const closed = await p.db
    .selectFrom('bonuses')
    .selectAll()
    .where('id', '=', bonusId)
    .executeTakeFirstOrThrow();
  expect(closed.status).toBe('forfeited');
  const batches = [...new Set(rows.map((r) => r.settled_at_ms!))].sort((a, b) => a - b);
  const settledBy = (at: number) => rows.filter((r) => r.settled_at_ms! <= at);
  const legal = [0, ...batches.map((at) => sum(settledBy(at), (r) => r.amount_cents))];
  const cut = legal.indexOf(closed.turnover_cents);
  expect(cut, `turnover ${closed.turnover_cents} is none of ${legal.join(', ')}`).toBeGreaterThanOrEqual(0);
  const beforeCancel = new Set(cut === 0 ? [] : settledBy(batches[cut - 1]!).map((r) => r.id));
  const bonusBack = (settledFirst: boolean) =>
    sum(
      rows.map((row, i) => ({ row, trade: trades[i]! })),
      ({ row, trade }) => (beforeCancel.has(row.id) === settledFirst ? returnOf(trade).toBonusCents : 0),
    );
  const postings = await postingsOf(p.db, trader.id, 'bonus');
  const forfeited = postings.filter((x) => x.idempotencyKey === `bonus:${bonusId}:forfeit`);
  const swept = postings.filter((x) => x.idempotencyKey.startsWith(`bonus:${bonusId}:sweep:`));
  const unstaked = bonusCents - sum(rows, (r) => r.stake_bonus_cents);
  expect(sum(forfeited, (x) => -x.amount)).toBe(unstaked + bonusBack(true));
  expect(sum(swept, (x) => -x.amount)).toBe(bonusBack(false));
}
