import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, systemClock } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { verifyLedger } from '@updown/wallet';
import { fundUser } from '@updown/wallet/testing';
import {
  createPlaceTrade,
  type PlaceTradeRequest,
  type PlaceTradeResult,
} from '../trades/place-trade.handler';
import { fundedTrader } from '../testing/traders';
import { exposureCents, potentialProfitCents } from './risk.domain';
import {
  bookDrift,
  bookOf,
  listPairRisks,
  lockPairRiskForChange,
  settleIntoBooks,
  writePairRiskSettings,
  writeTraderDefaults,
} from './risk.repository';

/**
 * The risk controls under concurrent placements: two order services (two placers on one pool,
 * each batching its own placements) against one pair's book, as two processes of the distributed
 * layout would be. Caps are checked under the book's lock inside each placement transaction, so
 * whatever the interleaving, no cap is crossed by a cent.
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 24 });
});
afterAll(async () => {
  await database.drop();
});

const prices = { get: () => ({ price: 100, atMs: Date.now() }) };

function placers(count: number) {
  return Array.from({ length: count }, () =>
    createPlaceTrade({ db: database.db, prices, clock: systemClock, batchMax: 16 }),
  );
}

async function traders(count: number, realCents: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = await fundedTrader(database.db, realCents);
    await fundUser(database.db, id, { demoCents: 10_000 });
    ids.push(id);
  }
  return ids;
}

async function configure(pair: string, settings: Partial<Parameters<typeof writePairRiskSettings>[2]>) {
  await database.db.transaction().execute(async (trx) => {
    await lockPairRiskForChange(trx, pair);
    await writePairRiskSettings(trx, pair, {
      capCents: { UP: null, DOWN: null },
      skewMaxPct: 0,
      skewFullAtCents: 100_000,
      lossLimitCents: null,
      lossWindowMin: 60,
      ...settings,
    });
  });
}

/** Sends every request at once, spread over the placers; each answer in request order. */
async function placeAll(requests: PlaceTradeRequest[], count = 2) {
  const place = placers(count);
  return Promise.allSettled(requests.map((r, i) => place[i % count]!(r)));
}

function refusedCodes(results: PromiseSettledResult<PlaceTradeResult>[]): string[] {
  return results.flatMap((r) => {
    if (r.status === 'fulfilled') return [];
    if (!(r.reason instanceof DomainError)) throw r.reason;
    return [r.reason.code];
  });
}

async function book(pair: string) {
  return bookOf((await listPairRisks(database.db, [pair])).get(pair)!);
}

async function openRealTrades(pair: string) {
  return database.db
    .selectFrom('trades')
    .select(['direction', 'amount_cents', 'payout_pct'])
    .where('pair', '=', pair)
    .where('status', '=', 'pending')
    .where('account_type', '=', 'real')
    .execute();
}

function real(userId: string, pair: string, amountCents: number, more: Partial<PlaceTradeRequest> = {}) {
  return {
    userId,
    pair,
    direction: 'UP',
    amountCents,
    durationSec: 60,
    accountType: 'real',
    ...more,
  } as const;
}

describe('an exposure cap under 200 concurrent placements', () => {
  it('admits exactly as many equal trades as fit, and the exposure stops at the cap to the cent', async () => {
    // $10 UP at 80% can cost $8; under a $100 cap twelve fit ($96) and a thirteenth would not ($104).
    await configure('BTCUSDT', { capCents: { UP: 10_000, DOWN: null } });
    const users = await traders(200, 100_000);
    const results = await placeAll(users.map((u) => real(u, 'BTCUSDT', 1_000)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(12);
    expect(new Set(refusedCodes(results))).toEqual(new Set(['EXPOSURE_CAP_REACHED']));
    const after = await book('BTCUSDT');
    expect(exposureCents(after, 'UP')).toBe(9_600);
    expect(after.UP).toEqual({ openTrades: 12, stakeCents: 12_000, profitCents: 9_600 });
    expect(await bookDrift(database.db)).toEqual([]);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it("never crosses either side's cap with mixed amounts in both directions, and the book matches the trades", async () => {
    const cap = 25_000;
    await configure('ETHUSD', { capCents: { UP: cap, DOWN: cap } });
    const users = await traders(200, 100_000);
    // Amounts from $1.00 to $99.99 in odd cents, a quarter of them DOWN.
    const requests = users.map((u, i) =>
      real(u, 'ETHUSD', 100 + ((i * 7_919) % 9_900), { direction: i % 4 === 0 ? 'DOWN' : 'UP' }),
    );
    const results = await placeAll(requests, 3);
    const accepted = results.filter((r) => r.status === 'fulfilled').length;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(200);
    expect(new Set(refusedCodes(results))).toEqual(new Set(['EXPOSURE_CAP_REACHED']));

    // The book agrees with the trades, and the exposure the trades imply is within the cap.
    const open = await openRealTrades('ETHUSD');
    const profit = (d: 'UP' | 'DOWN') =>
      open
        .filter((t) => t.direction === d)
        .reduce((s, t) => s + potentialProfitCents(t.amount_cents, t.payout_pct), 0);
    const stake = (d: 'UP' | 'DOWN') =>
      open.filter((t) => t.direction === d).reduce((s, t) => s + t.amount_cents, 0);
    const upExposure = profit('UP') - stake('DOWN');
    const downExposure = profit('DOWN') - stake('UP');
    expect(upExposure).toBeLessThanOrEqual(cap);
    expect(downExposure).toBeLessThanOrEqual(cap);
    const after = await book('ETHUSD');
    expect([exposureCents(after, 'UP'), exposureCents(after, 'DOWN')]).toEqual([upExposure, downExposure]);
    expect(await bookDrift(database.db)).toEqual([]);

    // No claim that a refused placement could not fit at the end: a DOWN trade accepted after
    // it lowers UP's exposure, so room can open later. The exact count is the equal-amounts test's.
  });
});

describe("a trader's caps under concurrent placements", () => {
  it('admit exactly the open trades and stake allowed, whichever placer takes them', async () => {
    const [user] = await traders(1, 1_000_000);
    await database.db
      .transaction()
      .execute((trx) => writeTraderDefaults(trx, { openStakeCentsMax: null, openTradesMax: 7 }));
    try {
      const results = await placeAll(
        Array.from({ length: 50 }, () => real(user!, 'GBPUSD', 500)),
        3,
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
      expect(new Set(refusedCodes(results))).toEqual(new Set(['OPEN_TRADES_CAP_REACHED']));

      await database.db
        .transaction()
        .execute((trx) => writeTraderDefaults(trx, { openStakeCentsMax: 10_000, openTradesMax: null }));
      // $35 open; $65 more fits as thirteen $5 trades.
      const more = await placeAll(
        Array.from({ length: 40 }, () => real(user!, 'GBPUSD', 500)),
        3,
      );
      expect(more.filter((r) => r.status === 'fulfilled')).toHaveLength(13);
      expect(new Set(refusedCodes(more))).toEqual(new Set(['OPEN_STAKE_CAP_REACHED']));
      const { rows } = await sql<{ n: number; cents: number }>`
        select count(*)::int as n, sum(amount_cents)::bigint as cents from trades
        where user_id = ${user} and status = 'pending' and account_type = 'real'`.execute(database.db);
      expect(rows[0]).toEqual({ n: 20, cents: 10_000 });
    } finally {
      await database.db
        .transaction()
        .execute((trx) => writeTraderDefaults(trx, { openStakeCentsMax: null, openTradesMax: null }));
    }
  });
});

describe('payout skew under concurrent placements', () => {
  it('gives each trade the payout of the book it was decided on, and refuses those shown more', async () => {
    // Each $10 UP adds $10 of imbalance: the payout drops a point per $10 up to 20 points at $200.
    await configure('USDJPY', { skewMaxPct: 20, skewFullAtCents: 20_000 });
    const users = await traders(60, 100_000);
    const expected = users.map((_, i) => 80 - (i % 5));
    const results = await placeAll(
      users.map((u, i) => real(u, 'USDJPY', 1_000, { expectedPayoutPct: expected[i] })),
      2,
    );
    const codes = refusedCodes(results);
    expect(new Set(codes)).toEqual(new Set(['PAYOUT_CHANGED']));
    const accepted = results.flatMap((r, i) =>
      r.status === 'fulfilled' ? [{ i, trade: r.value.trade }] : [],
    );
    // Nobody got less than they were shown, and the payouts were given out in book order:
    // sorted by the order they were written, each is the base minus a point per $10 before it.
    for (const { i, trade } of accepted) expect(trade.payout_pct).toBeGreaterThanOrEqual(expected[i]!);
    const byPosition = accepted
      .map(({ trade }) => trade)
      .sort((a, b) => Number(a.opened_seq) - Number(b.opened_seq));
    expect(byPosition.map((t) => t.payout_pct)).toEqual(byPosition.map((_, k) => 80 - k));
    expect(await bookDrift(database.db)).toEqual([]);
  });
});

describe('the loss breaker against placements in flight', () => {
  it('refuses every real placement decided after the suspension commits, takes demo ones, and keeps the book exact', async () => {
    await configure('XAUUSD', { lossLimitCents: 5_000 });
    const users = await traders(80, 100_000);
    const place = placers(2);
    const early = users.slice(0, 40).map((u, i) => place[i % 2]!(real(u, 'XAUUSD', 1_000)));
    // The house loses $60 on the pair while those placements are being decided.
    const trip = database.db
      .transaction()
      .execute((trx) =>
        settleIntoBooks(
          trx,
          [{ pair: 'XAUUSD', direction: 'DOWN', amountCents: 0, payoutPct: 80, pnlCents: 6_000 }],
          Date.now(),
        ),
      );
    const [tripped] = await Promise.all([trip, Promise.allSettled(early)]);
    expect(tripped.map((s) => s.pair)).toEqual(['XAUUSD']);
    const late = await Promise.allSettled(
      users
        .slice(40)
        .map((u, i) => place[i % 2]!(real(u, 'XAUUSD', 1_000, i % 2 ? { accountType: 'demo' } : {}))),
    );
    const lateReal = late.filter((_, i) => i % 2 === 0);
    const lateDemo = late.filter((_, i) => i % 2 === 1);
    expect(refusedCodes(lateReal)).toEqual(Array(20).fill('PAIR_SUSPENDED'));
    expect(lateDemo.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await bookDrift(database.db)).toEqual([]);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });
});
