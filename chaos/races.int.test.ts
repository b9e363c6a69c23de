import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUserBalances } from '@updown/wallet';
import { chaosSeed, createRandom, type Random } from './harness/random';
import {
  call,
  depositReal,
  placeTrade,
  signUp,
  type Account,
  type PlaceBody,
} from './harness/races-accounts';
import { Connections, type HttpAnswer } from './harness/races-http';
import { entriesByKeyPrefix, moneyByType, moneyMoved, movements, postingsOf } from './harness/races-ledger';
import { returnOf, sum, type ModelTrade } from './harness/races-model';
import { startRacePlatform, type RacePlatform } from './harness/races-platform';
import {
  burst,
  DEMO_GRANT_CENTS,
  expectAnswer,
  expectCleanRound,
  expectIdentical,
  modelOf,
  pendingCount,
  placeSpec,
  range,
  shuffle,
  sleep,
  tradesOf,
  waitUntil,
  wallet,
  walletSpec,
  type TradeRow,
} from './harness/races-support';

/**
 * Races against the whole platform in this process on a real port: many requests in flight at
 * once, each on its own keep-alive connection, repeated for several rounds so the interleavings
 * differ. Every round asserts the exact outcome the sequential model allows, that money moved only
 * where the round says (per account type, to the cent), that the ledger verifies and that no
 * settlement pass failed. `UPDOWN_TEST_LONG=1` runs more rounds; `CHAOS_SEED` replays one run's
 * choices (amounts, request mixes, delays). Each scenario has a platform and database of its own,
 * so trades left pending by one never settle inside another's accounting.
 */

const LONG = process.env.UPDOWN_TEST_LONG === '1';
const ROUNDS = LONG ? 25 : 5;
const SCENARIO_TIMEOUT_MS = LONG ? 1_800_000 : 240_000;
const PLATFORM_TIMEOUT_MS = 120_000;
const SEED = chaosSeed();
const random = createRandom(SEED);
const PAIR = 'BTCUSDT';
/** The bonus expiry job's period on the platform clock (its default). */
const BONUS_JOB_INTERVAL_MS = 60_000;

type Round = (p: RacePlatform, connections: Connections, rng: Random, round: number) => Promise<void>;

/** A platform for the scenario, `connectionCount` connections to it, and `ROUNDS` rounds. */
function scenario(
  title: string,
  connectionCount: number,
  prepare: (p: RacePlatform) => Promise<Round>,
  stream: number,
): void {
  let platform: RacePlatform | undefined;
  beforeAll(async () => {
    platform = await startRacePlatform();
  }, PLATFORM_TIMEOUT_MS);
  afterAll(async () => {
    await platform?.stop();
  }, PLATFORM_TIMEOUT_MS);
  it(
    title,
    async () => {
      const p = platform!;
      const round = await prepare(p);
      const connections = await Connections.open(p.baseUrl, connectionCount);
      try {
        for (const n of range(ROUNDS)) await round(p, connections, random.fork(stream * 1_000 + n), n);
      } finally {
        await connections.close();
      }
    },
    SCENARIO_TIMEOUT_MS,
  );
}

describe(`races (CHAOS_SEED=${SEED}, ${ROUNDS} rounds each)`, () => {
  describe('placements beyond the balance', () => {
    scenario(
      'accept exactly the stakes cash then bonus cover; the rest get 400 Insufficient balance',
      40,
      async () => (p, connections, rng, n) => placementRound(p, connections, rng, n % 2 === 0),
      1,
    );
  });

  describe('two admins deciding one request', () => {
    scenario(
      'let exactly one decision through per request; the others get 409 and money moves once',
      12,
      async (p) => {
        const admins = [await signUp(p, 'First', 'admin'), await signUp(p, 'Second', 'admin')] as const;
        await call(p, 'POST', '/api/admin/settings', admins[0].token, { require_deposit_approval: true });
        return (p, connections, rng) => decisionRound(p, connections, admins, rng);
      },
      2,
    );
  });

  describe('a withdrawal request racing a settlement payout', () => {
    scenario(
      'is refused before the payout and granted once after it, with or without a bonus',
      6,
      async () => (p, connections, rng, n) => payoutRaceRound(p, connections, rng, n % 2 === 1),
      3,
    );
  });

  describe('a bonus cancel racing the settlement of bonus-funded trades', () => {
    scenario(
      'forfeits every bonus cent to the pool in either order and pays the cash share as cash',
      20,
      async () => bonusCancelRound,
      4,
    );
  });

  describe('one Idempotency-Key from 20 connections', () => {
    scenario(
      'makes one trade, one deposit, one top-up and one withdrawal; another body is 409',
      20,
      async () => idempotencyRound,
      5,
    );
  });
});

/**
 * One trader, N placements of one stake at once, the stakes summing past cash plus bonus: exactly
 * floor(funds / stake) are accepted, their stakes taken from cash first and then from bonus.
 */
async function placementRound(
  p: RacePlatform,
  connections: Connections,
  rng: Random,
  withBonus: boolean,
): Promise<void> {
  // A first deposit of $20 or more earns a 50% bonus; a smaller one leaves the trader with cash only.
  const depositCents = withBonus ? rng.int(2_000, 20_000) : rng.int(500, 1_999);
  const bonusCents = withBonus ? Math.floor(depositCents / 2) : 0;
  const fundsCents = depositCents + bonusCents;
  // At most 30 stakes fit; with a bonus, a stake is at most 20% of it.
  const stakeCents = rng.int(
    Math.max(100, Math.ceil(fundsCents / 30)),
    withBonus ? Math.floor(bonusCents / 5) : Math.floor(depositCents / 3),
  );
  const fits = Math.floor(fundsCents / stakeCents);
  const attempts = fits + rng.int(3, connections.size - 30);
  const trader = await signUp(p, 'Placer');
  const before = await moneyByType(p.db);
  await depositReal(p, trader, depositCents);
  await p.freshTick(PAIR);

  const answers = await connections.all(
    range(attempts).map((i) =>
      placeSpec(trader, {
        pair: PAIR,
        direction: i % 2 === 0 ? 'UP' : 'DOWN',
        amount: stakeCents / 100,
        duration: 3600,
        account_type: 'real',
      }),
    ),
  );
  const accepted = answers.filter((answer) => answer.status === 201);
  expect(accepted.length, answers.map((a) => a.status).join(',')).toBe(fits);
  for (const answer of answers.filter((a) => a.status !== 201)) {
    expectAnswer(answer, 400, { detail: 'Insufficient balance', code: 'INSUFFICIENT_FUNDS' });
  }

  const cashUsed = Math.min(depositCents, fits * stakeCents);
  const bonusUsed = fits * stakeCents - cashUsed;
  const expected = {
    real: depositCents - cashUsed,
    bonus: bonusCents - bonusUsed,
    real_in_play: cashUsed,
    bonus_in_play: bonusUsed,
  };
  expect(await getUserBalances(p.db, trader.id)).toEqual(wallet(expected));
  const trades = await tradesOf(
    p.db,
    accepted.map((answer) => (answer.body as { id: string }).id),
  );
  expect(sum(trades, (t) => t.stake_cash_cents)).toBe(cashUsed);
  // Cash first: only the trade that emptied the cash can have taken from both.
  expect(trades.filter((t) => t.stake_cash_cents > 0 && t.stake_bonus_cents > 0).length).toBeLessThanOrEqual(
    1,
  );
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({ ...expected, payments_clearing: -depositCents, bonus_pool: -bonusCents }),
  );
  await expectCleanRound(p);
}

type Decision = 'approve' | 'reject';
type Outcome = 'approved' | 'rejected';

interface Target {
  readonly path: 'withdrawals' | 'deposits';
  readonly table: 'withdrawal_requests' | 'deposit_requests';
  readonly label: string;
  readonly id: string;
}

/**
 * A pending withdrawal and a pending deposit (which would earn the first-deposit bonus) of one
 * trader, each decided by both admins at once, each admin clicking approve or reject from one to
 * three connections. Exactly one click per request wins; money moves once, as that click says.
 */
async function decisionRound(
  p: RacePlatform,
  connections: Connections,
  admins: readonly [Account, Account],
  rng: Random,
): Promise<void> {
  const trader = await signUp(p, 'Requester');
  // Cash below the bonus minimum, approved before the race, so no bonus is involved yet.
  const funding = await depositReal(p, trader, 1_900);
  await call(p, 'POST', `/api/admin/deposits/${funding.request!.id}`, admins[0].token, { action: 'approve' });
  const before = await moneyByType(p.db);
  const withdrawCents = rng.int(100, 1_900);
  const depositCents = rng.int(2_000, 20_000);
  const withdrawal = await call<{ request: { id: string } }>(
    p,
    'POST',
    '/api/wallet/withdraw',
    trader.token,
    {
      amount: withdrawCents / 100,
      account_type: 'real',
    },
  );
  const deposit = await depositReal(p, trader, depositCents);
  expect(deposit.status).toBe('pending');

  const targets: Target[] = [
    { path: 'withdrawals', table: 'withdrawal_requests', label: 'Withdrawal', id: withdrawal.request.id },
    { path: 'deposits', table: 'deposit_requests', label: 'Deposit', id: deposit.request!.id },
  ];
  const clicks = shuffle(
    targets.flatMap((target) =>
      admins.flatMap((admin) => {
        const action = rng.pick<Decision>(['approve', 'reject']);
        return range(rng.int(1, 3)).map(() => ({ target, admin, action }));
      }),
    ),
    rng,
  );
  const answers = await connections.all(
    clicks.map(({ target, admin, action }) => ({
      method: 'POST' as const,
      path: `/api/admin/${target.path}/${target.id}`,
      token: admin.token,
      body: { action },
    })),
  );
  const decided = clicks.map((click, i) => ({ ...click, answer: answers[i]! }));
  const paidOut = (await expectOneDecision(p, targets[0]!, decided)) === 'approved';
  const credited = (await expectOneDecision(p, targets[1]!, decided)) === 'approved';

  const bonusCents = credited ? Math.floor(depositCents / 2) : 0;
  expect((await entriesByKeyPrefix(p.db, `withdrawal:${withdrawal.request.id}:`)).map((e) => e.kind)).toEqual(
    ['withdrawal', paidOut ? 'withdrawal_payout' : 'withdrawal_reversal'],
  );
  expect(await entriesByKeyPrefix(p.db, `deposit:${deposit.request!.id}`)).toHaveLength(credited ? 1 : 0);
  const bonuses = await p.db.selectFrom('bonuses').selectAll().where('user_id', '=', trader.id).execute();
  expect(bonuses.map((b) => b.amount_cents)).toEqual(credited ? [bonusCents] : []);
  const realChange = (paidOut ? -withdrawCents : 0) + (credited ? depositCents : 0);
  expect(await getUserBalances(p.db, trader.id)).toEqual(
    wallet({ real: 1_900 + realChange, bonus: bonusCents }),
  );
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({
      real: realChange,
      bonus: bonusCents,
      payments_clearing: (paidOut ? withdrawCents : 0) - (credited ? depositCents : 0),
      bonus_pool: -bonusCents,
    }),
  );
  await expectCleanRound(p);
}

/** One 200 for the request, 409 "already <outcome>" for every other click, one audit row, the row decided by the winner. */
async function expectOneDecision(
  p: RacePlatform,
  target: Target,
  decided: readonly { target: Target; admin: Account; action: Decision; answer: HttpAnswer }[],
): Promise<Outcome> {
  const mine = decided.filter((click) => click.target === target);
  const winners = mine.filter((click) => click.answer.status === 200);
  expect(winners.length, mine.map((click) => click.answer.text).join('\n')).toBe(1);
  const winner = winners[0]!;
  const status: Outcome = winner.action === 'approve' ? 'approved' : 'rejected';
  expectAnswer(winner.answer, 200, { id: target.id, status });
  for (const loser of mine.filter((click) => click !== winner)) {
    expectAnswer(loser.answer, 409, {
      code: 'REQUEST_NOT_PENDING',
      detail: `${target.label} request is already ${status}`,
    });
  }
  const row = await p.db
    .selectFrom(target.table)
    .selectAll()
    .where('id', '=', target.id)
    .executeTakeFirstOrThrow();
  expect([row.status, row.decided_by]).toEqual([status, winner.admin.id]);
  const audits = await p.db.selectFrom('admin_audit').selectAll().where('target', '=', target.id).execute();
  expect(audits.map((a) => [a.action, a.actor_id])).toEqual([
    [`${target.path === 'deposits' ? 'deposit' : 'withdrawal'}.${winner.action}`, winner.admin.id],
  ]);
  return status;
}

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
    const hedged = rows[0]!.expiry_ts === rows[1]!.expiry_ts;
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
): Promise<HttpAnswer[]> {
  const expiryMs = Math.max(...(await tradesOf(p.db, ids)).map((t) => t.expiry_ts));
  const delaysMs = range(rng.int(2, connections.size)).map(() => rng.int(0, 20));
  let settled = false;
  const settling = waitUntil('the trades to settle', async () => (await pendingCount(p.db, ids)) === 0).then(
    () => (settled = true),
  );
  await p.passExpiry(PAIR, expiryMs);
  const answers: HttpAnswer[] = [];
  await Promise.all(
    delaysMs.map(async (delayMs, worker) => {
      await sleep(delayMs);
      for (;;) {
        const sentAfterSettlement = settled;
        answers.push(await connections.send(worker, walletSpec(trader, 'withdraw', withdrawCents, 'real')));
        if (sentAfterSettlement) return;
        // The settlement wait fails by itself after its deadline; stop sending then too.
        await Promise.race([settling, Promise.resolve()]);
      }
    }),
  );
  await settling;
  return answers;
}

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
  const placed = await connections.all(range(count).map(() => placeSpec(trader, body)));
  expect(
    placed.map((a) => a.status),
    placed.map((a) => a.text).join('\n'),
  ).toEqual(range(count).map(() => 201));
  const ids = placed.map((answer) => (answer.body as { id: string }).id);
  const staked = await tradesOf(p.db, ids);
  expect(sum(staked, (t) => t.stake_bonus_cents)).toBe(count * stakeCents - depositCents);

  const delaysMs = range(rng.int(1, 4)).map(() => rng.int(0, 30));
  await p.passExpiry(PAIR, Math.max(...staked.map((t) => t.expiry_ts)));
  const answers = await Promise.all(
    delaysMs.map(async (delayMs, i) => {
      await sleep(delayMs);
      return connections.send(i, { method: 'POST', path: '/api/wallet/cancel-bonus', token: trader.token });
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
 * Settlement batches commit one after another, in `settled_at` order, and the cancel fell before,
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
  const batches = [...new Set(rows.map((r) => r.settled_at!))].sort((a, b) => a - b);
  const settledBy = (at: number) => rows.filter((r) => r.settled_at! <= at);
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

/**
 * The same request with one key from 20 connections at once, for a trade, a real deposit (which
 * earns the bonus once), a demo top-up and a withdrawal (which forfeits it once); then the same
 * key with another body, alone and, for trades, mixed into the burst.
 */
async function idempotencyRound(p: RacePlatform, connections: Connections, rng: Random): Promise<void> {
  const trader = await signUp(p, 'Retrier');
  const before = await moneyByType(p.db);
  await depositReal(p, trader, 1_900);
  await p.freshTick(PAIR);
  const stakedCents = 2 * (await racePlacementKeys(p, connections, rng, trader));

  const depositCents = rng.int(2_000, 10_000);
  const topUpCents = rng.int(100, 100_000);
  const withdrawCents = rng.int(100, 1_900 + depositCents - stakedCents);
  await raceWalletKey(connections, trader, 'deposit', depositCents, 'real');
  await raceWalletKey(connections, trader, 'deposit', topUpCents, 'demo');
  await raceWalletKey(connections, trader, 'withdraw', withdrawCents, 'real');
  const requests = async (table: 'deposit_requests' | 'withdrawal_requests') =>
    (await p.db.selectFrom(table).select('id').where('user_id', '=', trader.id).execute()).length;
  expect([await requests('deposit_requests'), await requests('withdrawal_requests')]).toEqual([2, 1]);
  const bonuses = await p.db.selectFrom('bonuses').selectAll().where('user_id', '=', trader.id).execute();
  expect(bonuses.map((b) => [b.amount_cents, b.status])).toEqual([
    [Math.floor(depositCents / 2), 'forfeited'],
  ]);

  const expected = {
    real: 1_900 + depositCents - stakedCents - withdrawCents,
    real_in_play: stakedCents,
    withdrawal_hold: withdrawCents,
  };
  expect(await getUserBalances(p.db, trader.id)).toEqual(
    wallet({ ...expected, demo: DEMO_GRANT_CENTS + topUpCents }),
  );
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({
      ...expected,
      payments_clearing: -(1_900 + depositCents),
      demo: topUpCents,
      demo_issuance: -topUpCents,
    }),
  );
  await expectCleanRound(p);
}

/**
 * One placement body under one key from every connection: one 201, the rest 200 with the same
 * body; the key with another amount is 409. Then two bodies mixed under a new key: the first to
 * commit is the trade, every request with the other body is 409. Returns the stake of each trade.
 */
async function racePlacementKeys(
  p: RacePlatform,
  connections: Connections,
  rng: Random,
  trader: Account,
): Promise<number> {
  const stakeCents = rng.int(100, 600);
  const body: PlaceBody = {
    pair: PAIR,
    direction: rng.pick(['UP', 'DOWN'] as const),
    amount: stakeCents / 100,
    duration: 3600,
    account_type: 'real',
  };
  const key = randomUUID();
  const placed = await burst(connections, () => placeSpec(trader, body, key));
  expect(placed.map((a) => a.status).sort()).toEqual([...range(connections.size - 1).map(() => 200), 201]);
  expectIdentical(placed);
  const otherAmount = placeSpec(trader, { ...body, amount: (stakeCents + 100) / 100 }, key);
  expectAnswer(await connections.send(0, otherAmount), 409, { code: 'IDEMPOTENCY_CONFLICT' });

  const mixedKey = randomUUID();
  const other: PlaceBody = { ...body, direction: body.direction === 'UP' ? 'DOWN' : 'UP' };
  const mixed = shuffle(
    range(connections.size).map((i) => (i % 2 === 0 ? body : other)),
    rng,
  );
  const answers = await connections.all(mixed.map((b) => placeSpec(trader, b, mixedKey)));
  const first = mixed[answers.findIndex((a) => a.status === 201)];
  expect(first, answers.map((a) => a.text).join('\n')).toBeDefined();
  const sameBody = answers.filter((_, i) => mixed[i] === first);
  expect(sameBody.map((a) => a.status).sort()).toEqual([...range(sameBody.length - 1).map(() => 200), 201]);
  expectIdentical(sameBody);
  for (const answer of answers.filter((_, i) => mixed[i] !== first)) {
    expectAnswer(answer, 409, { code: 'IDEMPOTENCY_CONFLICT' });
  }
  const trades = await p.db.selectFrom('trades').selectAll().where('user_id', '=', trader.id).execute();
  expect(trades.map((t) => t.idempotency_key).sort()).toEqual([key, mixedKey].sort());
  return stakeCents;
}

/** One wallet command under one key from every connection: 200 with one body; another amount is 409. */
async function raceWalletKey(
  connections: Connections,
  trader: Account,
  command: 'deposit' | 'withdraw',
  cents: number,
  accountType: 'real' | 'demo',
): Promise<void> {
  const key = randomUUID();
  const answers = await burst(connections, () => walletSpec(trader, command, cents, accountType, key));
  expect(answers.map((a) => a.status)).toEqual(range(connections.size).map(() => 200));
  expectIdentical(answers);
  const otherAmount = walletSpec(trader, command, cents + 1, accountType, key);
  expectAnswer(await connections.send(0, otherAmount), 409, { code: 'IDEMPOTENCY_CONFLICT' });
}
