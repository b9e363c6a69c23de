import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { DomainError, Registry } from '@updown/runtime';
import { metricValue } from '@updown/runtime/testing';
import { statusForCode } from '@updown/gateway';
import { createPlaceTrade, type PlaceTradeRequest, type PlaceTradeResult } from '@updown/order';
import { startLatestPrices } from '@updown/price-ingest';
import { getUserBalances, type UserBalances } from '@updown/wallet';
import type { Random } from '../harness/random';
import { depositReal, signUp, type Account } from '../harness/races-accounts';
import type { Connections } from '../harness/races-http';
import { moneyByType, moneyMoved, movements } from '../harness/races-ledger';
import { sum } from '../harness/races-model';
import type { RacePlatform } from '../harness/races-platform';
import {
  expectAnswer,
  expectCleanRound,
  placeRequest,
  range,
  shuffle,
  waitUntil,
  walletRequest,
} from '../harness/races-support';
import { PAIR, scenario } from '../harness/races-scenario';

const TRADERS = 50;
const PER_TRADER = 4;
const PLACEMENT_BATCH_MAX = 200;

describe('200 placements from 50 traders in the same millisecond', () => {
  scenario(
    'answers each as one after another in arrival order would: running balances, bonus caps, replays, 409s',
    TRADERS,
    prepareBurst,
    6,
  );
});

interface Body {
  readonly pair: string;
  readonly direction: 'UP' | 'DOWN';
  readonly amountCents: number;
}

interface Trader {
  readonly account: Account;
  /** The largest real stake while its first-deposit bonus is active; undefined without one. */
  readonly bonusCapCents: number | undefined;
  /** Its keyed trades from earlier rounds, which a later request may repeat. */
  readonly keyed: { key: string; body: Body; tradeId: string }[];
}

interface Placement {
  readonly trader: number;
  readonly body: Body;
  readonly key?: string;
}

type Expected =
  | {
      readonly kind: 'placed';
      readonly cashCents: number;
      readonly bonusCents: number;
    }
  /** A replay of the trade placed by the request at `index` (in arrival order) or an earlier round. */
  | {
      readonly kind: 'replay';
      readonly index?: number;
      readonly tradeId?: string;
    }
  | {
      readonly kind: 'refused';
      readonly status: number;
      readonly code: string;
      readonly detail: string;
    };

type Funds = { real: number; bonus: number };

/**
 * Fifty traders, every other one with a first-deposit bonus (so a real stake is capped at 20% of
 * it) and little cash left beside it (so stakes run from cash into bonus). Each round deposits a
 * little more for each, then:
 * 200 placements, four per trader, are handed to the order service's `placeTrade` in one
 * synchronous turn, in a shuffled order, so they reach it in the same millisecond and in an order
 * the test knows; then one more placement per trader goes through the platform's HTTP API, all at
 * once on their own connections. Every answer is compared with the sequential model below.
 */
async function prepareBurst(p: RacePlatform) {
  const traders: Trader[] = [];
  for (const i of range(TRADERS)) {
    const account = await signUp(p, `Burst${i}`);
    // A first deposit of $20 or more earns a 50% bonus; a smaller one earns none, and later ones
    // below $20 never do.
    const firstDepositCents = i % 2 === 0 ? 2_000 + i * 100 : 500 + i * 10;
    await depositReal(p, account, firstDepositCents);
    const bonusCents = i % 2 === 0 ? Math.floor(firstDepositCents / 2) : undefined;
    traders.push({
      account,
      bonusCapCents: bonusCents === undefined ? undefined : Math.floor(bonusCents / 5),
      keyed: [],
    });
  }
  const bonuses = await p.db
    .selectFrom('bonuses')
    .select(['user_id', 'amount_cents'])
    .where('status', '=', 'active')
    .where(
      'user_id',
      'in',
      traders.map((t) => t.account.id),
    )
    .execute();
  const bonusOf = new Map(bonuses.map((b) => [b.user_id, b.amount_cents]));
  // 20% of the bonus, as DESIGN §4 says: the model's cap is checked against the bonus credited.
  expect(traders.map((t) => t.bonusCapCents)).toEqual(
    traders.map((t) => {
      const bonus = bonusOf.get(t.account.id);
      return bonus === undefined ? undefined : Math.floor((bonus * 20) / 100);
    }),
  );
  // The bonus traders spend their cash down to about two stakes, so their stakes soon run from
  // cash into bonus, and run out, inside a burst.
  await p.freshTick(PAIR);
  await Promise.all(
    traders.map(async (trader) => {
      const cap = trader.bonusCapCents;
      if (cap === undefined) return;
      const { real } = await getUserBalances(p.db, trader.account.id);
      for (const _ of range(Math.floor(real / cap) - 2)) {
        await p.api.post(
          '/api/trades/place',
          { pair: PAIR, direction: 'UP', amount: cap / 100, duration: 3600, account_type: 'real' },
          { token: trader.account.token },
        );
      }
    }),
  );
  return (platform: RacePlatform, connections: Connections, rng: Random, round: number) =>
    burstRound(platform, connections, rng, round, traders);
}

async function burstRound(
  p: RacePlatform,
  connections: Connections,
  rng: Random,
  round: number,
  traders: Trader[],
): Promise<void> {
  const before = await moneyByType(p.db);
  // Below $20 each, so no bonus is ever earned here; a bonus trader gets at most one stake's worth.
  const deposits = traders.map((t) => rng.int(100, t.bonusCapCents ?? 1_999));
  const deposited = await connections.all(
    traders.map((t, i) => walletRequest(t.account, 'deposit', deposits[i]!, 'real')),
  );
  expect(deposited.map((a) => a.status)).toEqual(traders.map(() => 200));
  const start = await Promise.all(traders.map((t) => getUserBalances(p.db, t.account.id)));
  const funds = new Map(start.map((b, i) => [i, { real: b.real, bonus: b.bonus }]));

  // Even rounds: one batch of 200. Odd rounds: a smaller cap, so later batches wait for earlier commits.
  const batchMax = round % 2 === 0 ? PLACEMENT_BATCH_MAX : rng.int(16, 80);
  const placements = shuffle(
    traders.flatMap((trader, i) => scriptFor(trader, i, rng)),
    rng,
  );
  const expected = model(placements, traders, funds);

  const prices = await startLatestPrices({
    db: p.db,
    bus: p.platform.bus,
    clock: p.clock,
    logger: p.platform.logger,
  });
  let settled: PromiseSettledResult<PlaceTradeResult>[];
  const registry = new Registry();
  try {
    await p.freshTick(PAIR);
    await waitUntil('a fresh price for the burst', async () => {
      const tick = prices.get(PAIR);
      return tick !== undefined && p.clock.nowMs() - tick.atMs < 2_000;
    });
    const place = createPlaceTrade({
      db: p.db,
      prices,
      clock: p.clock,
      registry,
      batchMax,
    });
    const requests = placements.map((placement) => requestOf(traders, placement));
    // One synchronous turn: every request is queued before the first batch starts.
    const answers = requests.map((request) => place(request));
    settled = await Promise.allSettled(answers);
  } finally {
    await prices.stop();
  }
  // A clean burst commits in its batches: a fallback to one at a time would hide a wrong batch.
  expect(await metricValue(registry, 'updown_placement_batch_fallbacks_total')).toBe(0);
  expect(await batchSizes(registry)).toEqual({
    count: Math.ceil(placements.length / batchMax),
    placements: 200,
  });
  expect(mismatches(placements, expected, settled, traders)).toEqual([]);
  recordKeyed(placements, expected, settled, traders);

  const followUp = await httpRound(p, connections, rng, traders, funds);

  const stakes = (pick: (e: { cashCents: number; bonusCents: number }) => number) =>
    sum(
      [...expected, ...followUp].filter((e) => e.kind === 'placed'),
      pick,
    );
  const after = await Promise.all(traders.map((t) => getUserBalances(p.db, t.account.id)));
  after.forEach((balances, i) => {
    const placedBy = (e: Expected, trader: number) => e.kind === 'placed' && trader === i;
    const mine = [
      ...expected.filter((e, j) => placedBy(e, placements[j]!.trader)),
      ...followUp.filter((e, j) => placedBy(e, j)),
    ] as Extract<Expected, { kind: 'placed' }>[];
    expect(balances, `trader ${i}`).toEqual(
      expectedBalances(
        start[i]!,
        funds.get(i)!,
        sum(mine, (e) => e.cashCents),
        sum(mine, (e) => e.bonusCents),
      ),
    );
  });
  const totalDeposits = sum(deposits, (d) => d);
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({
      payments_clearing: -totalDeposits,
      real: totalDeposits - stakes((e) => e.cashCents),
      real_in_play: stakes((e) => e.cashCents),
      bonus: -stakes((e) => e.bonusCents),
      bonus_in_play: stakes((e) => e.bonusCents),
    }),
  );
  await expectCleanRound(p);
}

/**
 * A trader's four requests, by the trader's place among the fifty: stakes past the balance, one
 * key repeated with one body, one key with two bodies, keys of earlier rounds repeated with the
 * same and with another body, an unknown pair and a stake past the bonus cap.
 */
function scriptFor(trader: Trader, i: number, rng: Random): Placement[] {
  const stake = (): Body => ({
    pair: PAIR,
    direction: rng.pick(['UP', 'DOWN'] as const),
    amountCents: rng.int(100, trader.bonusCapCents ?? 900),
  });
  const other = (body: Body): Body => ({
    ...body,
    amountCents: body.amountCents + 100,
  });
  const at = (body: Body, key?: string): Placement => ({
    trader: i,
    body,
    key,
  });
  switch (i % 5) {
    case 0:
      return [at(stake()), at(stake()), at(stake()), at(stake())];
    case 1: {
      const key = randomUUID();
      const body = stake();
      return [at(body, key), at(body, key), at(body, key), at(stake())];
    }
    case 2: {
      const key = randomUUID();
      const body = stake();
      return [at(body, key), at(other(body), key), at(body, key), at(other(body), key)];
    }
    case 3: {
      const earlier = trader.keyed.slice(-2);
      return [
        ...earlier.map((k, n) => at(n === 0 ? k.body : other(k.body), k.key)),
        ...range(PER_TRADER - earlier.length).map(() => at(stake(), randomUUID())),
      ];
    }
    default:
      return [
        at({ ...stake(), pair: 'NOPE' }, randomUUID()),
        at({
          ...stake(),
          amountCents: (trader.bonusCapCents ?? 900) + rng.int(1, 300),
        }),
        at(stake()),
        at(stake(), randomUUID()),
      ];
  }
}

/**
 * The sequential model, from DESIGN §3 and §4 rather than from the services: a key seen before
 * (committed, or accepted earlier in arrival order) replays with the same body and is 409 with
 * another; then the pair, the bonus stake cap, the funds (cash first, then bonus). A refusal
 * moves nothing. `funds` is left at what the placements leave.
 */
function model(
  placements: readonly Placement[],
  traders: readonly Trader[],
  funds: Map<number, Funds>,
): Expected[] {
  const keys = new Map<string, { body: Body; index?: number; tradeId?: string }>();
  traders.forEach((t, i) =>
    t.keyed.forEach((k) => keys.set(`${i} ${k.key}`, { body: k.body, tradeId: k.tradeId })),
  );
  return placements.map((placement, index): Expected => {
    const scope = placement.key === undefined ? undefined : `${placement.trader} ${placement.key}`;
    const seen = scope === undefined ? undefined : keys.get(scope);
    if (seen) {
      const same = JSON.stringify(seen.body) === JSON.stringify(placement.body);
      if (!same)
        return refused(
          'IDEMPOTENCY_CONFLICT',
          'This idempotency key was already used for a different request',
        );
      return { kind: 'replay', index: seen.index, tradeId: seen.tradeId };
    }
    const outcome = decide(placement, traders[placement.trader]!, funds);
    if (outcome.kind === 'placed' && scope !== undefined) keys.set(scope, { body: placement.body, index });
    return outcome;
  });
}

function decide(placement: Placement, trader: Trader, funds: Map<number, Funds>): Expected {
  const { amountCents, pair } = placement.body;
  if (pair !== PAIR) return refused('UNKNOWN_PAIR', `Unknown pair: ${pair}`);
  if (trader.bonusCapCents !== undefined && amountCents > trader.bonusCapCents) {
    return refused(
      'STAKE_OUT_OF_BOUNDS',
      `With an active bonus the maximum stake is $${(trader.bonusCapCents / 100).toFixed(2)}`,
    );
  }
  const f = funds.get(placement.trader)!;
  if (amountCents > f.real + f.bonus) return refused('INSUFFICIENT_FUNDS', 'Insufficient balance');
  const cashCents = Math.min(f.real, amountCents);
  const bonusCents = amountCents - cashCents;
  funds.set(placement.trader, {
    real: f.real - cashCents,
    bonus: f.bonus - bonusCents,
  });
  return { kind: 'placed', cashCents, bonusCents };
}

function refused(code: string, detail: string): Expected {
  return { kind: 'refused', status: statusForCode(code), code, detail };
}

function requestOf(traders: readonly Trader[], placement: Placement): PlaceTradeRequest {
  return {
    userId: traders[placement.trader]!.account.id,
    pair: placement.body.pair,
    direction: placement.body.direction,
    amountCents: placement.body.amountCents,
    durationSec: 3600,
    accountType: 'real',
    idempotencyKey: placement.key,
  };
}

/** Every answer that differs from the model's, described; empty when each answer is exact. */
function mismatches(
  placements: readonly Placement[],
  expected: readonly Expected[],
  settled: readonly PromiseSettledResult<PlaceTradeResult>[],
  traders: readonly Trader[],
): string[] {
  const problems: string[] = [];
  const tradeOf = (i: number) => {
    const s = settled[i]!;
    return s.status === 'fulfilled' ? s.value.trade : undefined;
  };
  expected.forEach((want, i) => {
    const got = settled[i]!;
    const placement = placements[i]!;
    const what = `#${i} trader ${placement.trader} ${JSON.stringify(placement.body)} key ${placement.key ?? '-'}`;
    const actual =
      got.status === 'rejected'
        ? got.reason instanceof DomainError
          ? `${got.reason.code}: ${got.reason.message}`
          : String(got.reason)
        : `${got.value.replayed ? 'replay of' : 'new'} ${got.value.trade.id}`;
    const fail = (wanted: string): void => void problems.push(`${what}: expected ${wanted}, got ${actual}`);
    if (want.kind === 'refused') {
      const ok =
        got.status === 'rejected' &&
        got.reason instanceof DomainError &&
        got.reason.code === want.code &&
        got.reason.message === want.detail &&
        statusForCode(got.reason.code) === want.status;
      if (!ok) fail(`${want.status} ${want.code}: ${want.detail}`);
      return;
    }
    if (got.status === 'rejected') return fail(want.kind);
    const { trade, replayed } = got.value;
    if (want.kind === 'replay') {
      const first = want.index === undefined ? undefined : tradeOf(want.index);
      const id = want.tradeId ?? first?.id;
      const same = first === undefined || JSON.stringify(first) === JSON.stringify(trade);
      if (!replayed || trade.id !== id || !same) fail(`200, a replay of ${id}`);
      return;
    }
    const exact =
      !replayed &&
      trade.user_id === traders[placement.trader]!.account.id &&
      trade.pair === placement.body.pair &&
      trade.direction === placement.body.direction &&
      trade.amount_cents === placement.body.amountCents &&
      trade.stake_cash_cents === want.cashCents &&
      trade.stake_bonus_cents === want.bonusCents &&
      trade.idempotency_key === (placement.key ?? null) &&
      trade.status === 'pending';
    if (!exact)
      fail(
        `201, a trade staking ${want.cashCents} cash + ${want.bonusCents} bonus (${JSON.stringify(trade)})`,
      );
  });
  return problems;
}

/** Remembers each trader's new keyed trades, for later rounds to repeat. */
function recordKeyed(
  placements: readonly Placement[],
  expected: readonly Expected[],
  settled: readonly PromiseSettledResult<PlaceTradeResult>[],
  traders: Trader[],
): void {
  expected.forEach((want, i) => {
    const placement = placements[i]!;
    const got = settled[i]!;
    if (want.kind !== 'placed' || placement.key === undefined || got.status !== 'fulfilled') return;
    traders[placement.trader]!.keyed.push({
      key: placement.key,
      body: placement.body,
      tradeId: got.value.trade.id,
    });
  });
}

/**
 * One more placement per trader, through the platform's own API and order service, all at once on
 * their own connections: a repeat of one of its keys (same body, or another amount), or a new
 * stake on what the burst left. Each trader sends one, so every answer is known whatever the order.
 */
async function httpRound(
  p: RacePlatform,
  connections: Connections,
  rng: Random,
  traders: Trader[],
  funds: Map<number, Funds>,
): Promise<Expected[]> {
  const plan = traders.map((trader, i): { placement: Placement; expected: Expected } => {
    const earlier = trader.keyed.length > 0 && rng.chance(0.4) ? rng.pick(trader.keyed) : undefined;
    if (earlier) {
      const same = rng.chance(0.5);
      const body = same ? earlier.body : { ...earlier.body, amountCents: earlier.body.amountCents + 1 };
      return {
        placement: { trader: i, body, key: earlier.key },
        expected: same
          ? { kind: 'replay', tradeId: earlier.tradeId }
          : refused('IDEMPOTENCY_CONFLICT', 'This idempotency key was already used for a different request'),
      };
    }
    const placement = {
      trader: i,
      body: {
        pair: PAIR,
        direction: 'UP' as const,
        amountCents: rng.int(100, 900),
      },
    };
    return { placement, expected: decide(placement, trader, funds) };
  });
  await p.freshTick(PAIR);
  const answers = await connections.all(
    plan.map(({ placement }) =>
      placeRequest(
        traders[placement.trader]!.account,
        {
          pair: placement.body.pair,
          direction: placement.body.direction,
          amount: placement.body.amountCents / 100,
          duration: 3600,
          account_type: 'real',
        },
        placement.key,
      ),
    ),
  );
  const placedIds: {
    id: string;
    expected: Extract<Expected, { kind: 'placed' }>;
  }[] = [];
  answers.forEach((answer, i) => {
    const { placement, expected } = plan[i]!;
    if (expected.kind === 'refused')
      return expectAnswer(answer, expected.status, {
        detail: expected.detail,
        code: expected.code,
      });
    if (expected.kind === 'replay') return expectAnswer(answer, 200, { id: expected.tradeId });
    expectAnswer(answer, 201, {
      amount: placement.body.amountCents / 100,
      direction: 'UP',
      status: 'pending',
    });
    placedIds.push({ id: answer.body!.id, expected });
  });
  const rows = await p.db
    .selectFrom('trades')
    .select(['id', 'stake_cash_cents', 'stake_bonus_cents'])
    .where(
      'id',
      'in',
      placedIds.map((t) => t.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const { id, expected } of placedIds) {
    expect(byId.get(id), id).toEqual({
      id,
      stake_cash_cents: expected.cashCents,
      stake_bonus_cents: expected.bonusCents,
    });
  }
  return plan.map((step) => step.expected);
}

function expectedBalances(
  start: UserBalances,
  left: Funds,
  cashStaked: number,
  bonusStaked: number,
): UserBalances {
  return {
    ...start,
    real: left.real,
    bonus: left.bonus,
    real_in_play: start.real_in_play + cashStaked,
    bonus_in_play: start.bonus_in_play + bonusStaked,
  };
}

/** How many batches the burst's `placeTrade` committed, and how many placements they held. */
async function batchSizes(registry: Registry): Promise<{ count: number; placements: number }> {
  const { values } = await registry.getSingleMetric('updown_placement_batch_size')!.get();
  const value = (suffix: string) =>
    values.find((v) => (v as { metricName?: string }).metricName === `updown_placement_batch_size${suffix}`)
      ?.value;
  return { count: value('_count') ?? 0, placements: value('_sum') ?? 0 };
}
