import { describe, expect } from 'vitest';
import type { Answer } from '@updown/api-client';
import { getUserBalances } from '@updown/wallet';
import type { Random } from '../harness/random';
import { depositReal, placeTrade, signUp, type Account, type PlaceBody } from '../harness/races-accounts';
import type { Connections } from '../harness/races-http';
import { moneyByType, moneyMoved, movements, postingsOf } from '../harness/races-ledger';
import { returnOf, sum } from '../harness/races-model';
import type { RacePlatform } from '../harness/races-platform';
import {
  expectAnswer,
  expectCleanRound,
  modelOf,
  pendingCount,
  range,
  sleep,
  tradesOf,
  waitUntil,
  wallet,
  walletRequest,
} from '../harness/races-support';
import { PAIR, scenario } from '../harness/races-scenario';

describe('a withdrawal request racing a settlement payout', () => {
  scenario(
    'is refused before the payout and granted once after it, with or without a bonus',
    6,
    async () => (p, connections, rng, n) => payoutRaceRound(p, connections, rng, n % 2 === 1),
    3,
  );
});

/**
 * An UP and a DOWN trade expire; as the tick that makes them due is published, a few connections
 * keep requesting a withdrawal of more than the cash left, until the trades are settled and once
 * more after. Before the payout commits a request must be refused; after it, the first is granted
 * when the payout covers it, and no second one can be (it asks for more than half of what is there).
 * With a bonus (every other round) the stakes still come from cash and the grant forfeits the bonus.
 */
async function payoutRaceRound(
  p: RacePlatform,
  connections: Connections,
  rng: Random,
  withBonus: boolean,
): Promise<void> {
  const trader = await signUp(p, 'Payee');
  const before = await moneyByType(p.db);
  const depositCents = withBonus ? rng.int(2_000, 3_000) : 1_900;
  const bonusCents = withBonus ? Math.floor(depositCents / 2) : 0;
  await depositReal(p, trader, depositCents);
  // At most 20% of the bonus while it is active.
  const stakeCents = rng.int(200, withBonus ? Math.min(400, Math.floor(bonusCents / 5)) : 400);
  const ids: string[] = [];
  for (const direction of ['UP', 'DOWN'] as const) {
    const body: PlaceBody = {
      pair: PAIR,
      direction,
      amount: stakeCents / 100,
      duration: 60,
      account_type: 'real',
    };
    ids.push((await placeTrade(p, trader, body)).id);
  }
  const cashLeft = depositCents - 2 * stakeCents;
  const withdrawCents = cashLeft + stakeCents;
  const answers = await withdrawWhileSettling(p, connections, rng, trader, ids, withdrawCents);

  const rows = await tradesOf(p.db, ids);
  const trades = rows.map(modelOf);
  const paidBack = sum(trades, (t) => returnOf(t).toCashCents);
  const grantable = cashLeft + paidBack >= withdrawCents;
  const granted = answers.filter((a) => a.status === 200);
  expect(granted.length, answers.map((a) => `${a.status} ${a.text}`).join('\n')).toBe(grantable ? 1 : 0);
  for (const answer of answers.filter((a) => a.status !== 200)) {
    expectAnswer(answer, 400, { detail: 'Insufficient balance', code: 'INSUFFICIENT_FUNDS' });
  }
  const held = grantable ? withdrawCents : 0;
  const bonusLeft = grantable ? 0 : bonusCents;
  const expected = { real: cashLeft + paidBack - held, withdrawal_hold: held, bonus: bonusLeft };
  expect(await getUserBalances(p.db, trader.id)).toEqual(wallet(expected));
  if (withBonus) {
    // The payout settles while the bonus is active (only a request after it is granted); both legs
    // count toward turnover unless they share an expiry, which would make them a hedge.
    const hedged = rows[0]!.expiry_at_ms === rows[1]!.expiry_at_ms;
    const bonus = await p.db
      .selectFrom('bonuses')
      .selectAll()
      .where('user_id', '=', trader.id)
      .executeTakeFirst();
    expect([bonus?.status, bonus?.turnover_cents]).toEqual([
      grantable ? 'forfeited' : 'active',
      hedged ? 0 : 2 * stakeCents,
    ]);
  }
  const requests = await p.db
    .selectFrom('withdrawal_requests')
    .select('id')
    .where('user_id', '=', trader.id)
    .execute();
  expect(requests).toHaveLength(grantable ? 1 : 0);
  if (grantable) {
    // Postings on one account are written under its row lock, so their order is the commit order.
    const real = await postingsOf(p.db, trader.id, 'real');
    const hold = real.find((posting) => posting.kind === 'withdrawal')!;
    const payouts = real.filter((posting) => posting.idempotencyKey.endsWith(':settle'));
    expect(payouts.length).toBeGreaterThan(0);
    expect(payouts.every((payout) => payout.id < hold.id)).toBe(true);
  }
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({
      ...expected,
      payments_clearing: -depositCents,
      house_real: sum(trades, (t) => t.stakeCashCents - returnOf(t).toCashCents),
      bonus_pool: -bonusLeft,
    }),
  );
  await expectCleanRound(p);
}

/**
 * Lets `ids` expire and, from the moment the tick that makes them due is published, requests the
 * withdrawal on two or more connections in a loop until the trades are settled, each connection
 * sending once more after that. Returns every answer.
 */
async function withdrawWhileSettling(
  p: RacePlatform,
  connections: Connections,
  rng: Random,
  trader: Account,
  ids: readonly string[],
  withdrawCents: number,
): Promise<Answer<unknown>[]> {
  const expiryMs = Math.max(...(await tradesOf(p.db, ids)).map((t) => t.expiry_at_ms));
  const delaysMs = range(rng.int(2, connections.size)).map(() => rng.int(0, 20));
  let settled = false;
  const settling = waitUntil('the trades to settle', async () => (await pendingCount(p.db, ids)) === 0).then(
    () => (settled = true),
  );
  await p.passExpiry(PAIR, expiryMs);
  const answers: Answer<unknown>[] = [];
  await Promise.all(
    delaysMs.map(async (delayMs, worker) => {
      await sleep(delayMs);
      for (;;) {
        const sentAfterSettlement = settled;
        answers.push(
          await connections.send(worker, walletRequest(trader, 'withdraw', withdrawCents, 'real')),
        );
        if (sentAfterSettlement) return;
        // The settlement wait fails by itself after its deadline; stop sending then too.
        await Promise.race([settling, Promise.resolve()]);
      }
    }),
  );
  await settling;
  return answers;
}
