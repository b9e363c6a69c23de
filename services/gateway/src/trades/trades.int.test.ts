import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { createPlaceTrade, type PriceSource } from '@updown/order';
import { getUserBalances, verifyLedger } from '@updown/wallet';
import { fundUser } from '@updown/wallet/testing';
import {
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from '../auth/testing/auth-test-app';
import { createTradesPlugin, type EvidenceLoader } from './trades.routes';

let database: TestDatabase;
let harness: AuthTestApp;
const registry = createMetricsRegistry();
const prices = new Map<string, { price: number; atMs: number }>();
const priceSource: PriceSource = { get: (pair) => prices.get(pair) };
const loadEvidence: EvidenceLoader = async () => ({
  entry_tick: null,
  exit_tick: null,
  entry_window: [],
  exit_window: [],
  reference_check: null,
});

interface Trader {
  id: string;
  token: string;
  email: string;
  password: string;
}

async function trader(realDollars = 0): Promise<Trader> {
  const account = newAccount('trader');
  const { id } = await register(harness.app, account);
  const { access_token } = await login(harness.app, account.email, account.password);
  await fundUser(database.db, id, { realCents: realDollars * 100 });
  return { id, token: access_token, email: account.email, password: account.password };
}

function place(who: Trader, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return harness.app.inject({
    method: 'POST',
    url: '/api/trades/place',
    headers: { ...bearer(who.token), ...headers },
    payload: { pair: 'BTCUSDT', direction: 'UP', amount: 10, duration: 60, account_type: 'demo', ...payload },
  });
}

async function counts() {
  const { rows } = await sql<{ trades: number; postings: number }>`
    select (select count(*) from trades) as trades, (select count(*) from ledger_postings) as postings`.execute(
    database.db,
  );
  return rows[0]!;
}

beforeAll(async () => {
  database = await createTestDatabase({ max: 40 });
  // The routes and the order service read the harness's manual clock, which exists once it is built.
  const clock = { nowMs: () => harness.clock.nowMs(), setTimeout: () => () => undefined };
  const placeTrade = createPlaceTrade({ db: database.db, prices: priceSource, clock, registry });
  harness = await authTestApp(database.db, {
    plugins: [createTradesPlugin({ db: database.db, order: { placeTrade }, clock, loadEvidence })],
  });
  prices.set('BTCUSDT', { price: 97_000.5, atMs: harness.clock.nowMs() });
  prices.set('EURUSD', { price: 1.16012, atMs: harness.clock.nowMs() });
});
afterAll(async () => {
  await harness.close();
  await database.drop();
});

describe('POST /api/trades/place', () => {
  it('holds the stake, records a pending trade at the latest price and queues trades.opened.v1', async () => {
    const me = await trader();
    const res = await place(me, { amount: 25.5, duration: 120 });
    expect(res.statusCode, res.body).toBe(201);
    const trade = res.json();
    expect(trade).toMatchObject({
      pair: 'BTCUSDT',
      direction: 'UP',
      amount: 25.5,
      entry_price: 97_000.5,
      exit_price: null,
      payout_pct: 80,
      status: 'pending',
      pnl: null,
      account_type: 'demo',
      duration: 120,
    });
    expect(trade.expiry_ts).toBe(Math.ceil((harness.clock.nowMs() + 120_000) / 1000));
    expect(new Date(trade.created_at).getTime()).toBe(harness.clock.nowMs());
    expect(await getUserBalances(database.db, me.id)).toMatchObject({
      demo: 1_000_000 - 2_550,
      demo_in_play: 2_550,
    });
    // The trade row is the outbox of its trades.opened.v1: it carries the publish position.
    const row = await database.db
      .selectFrom('trades')
      .select(['opened_xact_id', 'opened_seq'])
      .where('id', '=', trade.id)
      .executeTakeFirstOrThrow();
    expect(row.opened_xact_id).not.toBeNull();
    expect(row.opened_seq).toBeGreaterThan(0);
    expect((await verifyLedger(database.db)).ok).toBe(true);
    const placed = await registry.getSingleMetricAsString('updown_trades_placed_total');
    expect(placed).toMatch(/updown_trades_placed_total\{pair="BTCUSDT",account="demo"\} [1-9]/);
  });

  it('takes a real stake from cash', async () => {
    const me = await trader(50);
    const res = await place(me, { account_type: 'real', amount: 20, pair: 'EURUSD', direction: 'DOWN' });
    expect(res.statusCode, res.body).toBe(201);
    expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 3_000, real_in_play: 2_000 });
  });

  it.each([
    // The request schema states the minimum, so a stake at or below zero is told the minimum.
    [{ amount: 0 }, 'Minimum trade amount is $1.00'],
    [{ amount: -5 }, 'Minimum trade amount is $1.00'],
    [{ amount: 10.005 }, 'Please enter a valid amount'],
    [{ amount: 0.5 }, 'Minimum trade amount is $1.00'],
    [{ amount: 5_000.01 }, 'Maximum trade amount is $5,000.00'],
    [{ duration: 61 }, 'Duration must be one of 60, 120, 180, 240, 300, 900, 1800, 2700, 3600 seconds'],
    [{ pair: 'NOPE' }, 'Unknown pair: NOPE'],
    [{ account_type: 'real' }, 'Insufficient balance'],
    [{ direction: 'SIDEWAYS' }, 'direction must be one of: UP, DOWN'],
    [{ amount: '10' }, 'amount must be number'],
    [{ entry_price: 1 }, 'entry_price is not allowed'],
  ])('refuses %j with 400 "%s" and writes nothing', async (payload, detail) => {
    const me = await trader();
    const before = await counts();
    const res = await place(me, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(detail);
    expect(await counts()).toEqual(before);
  });

  it('refuses a pair whose latest price is older than 5 s', async () => {
    const me = await trader();
    prices.set('GBPUSD', { price: 1.315, atMs: harness.clock.nowMs() - 5_001 });
    const res = await place(me, { pair: 'GBPUSD' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('No fresh price for GBPUSD; please try again in a moment');
  });

  it('refuses an inactive pair', async () => {
    const me = await trader();
    await database.db
      .updateTable('market_pairs')
      .set({ active: false })
      .where('symbol', '=', 'ETHUSD')
      .execute();
    prices.set('ETHUSD', { price: 3_100, atMs: harness.clock.nowMs() });
    const res = await place(me, { pair: 'ETHUSD' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('ETHUSD is not available for trading right now');
    await database.db
      .updateTable('market_pairs')
      .set({ active: true })
      .where('symbol', '=', 'ETHUSD')
      .execute();
  });

  it('needs a session', async () => {
    const res = await harness.app.inject({
      method: 'POST',
      url: '/api/trades/place',
      payload: { pair: 'BTCUSDT' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('answers 20 concurrent retries with one Idempotency-Key with one trade, debited once', async () => {
    const me = await trader();
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => place(me, { amount: 7 }, { 'idempotency-key': key })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([...Array(19).fill(200), 201].sort());
    expect(new Set(responses.map((r) => r.json().id)).size).toBe(1);
    expect((await getUserBalances(database.db, me.id)).demo_in_play).toBe(700);
  });

  it('refuses an Idempotency-Key reused for another trade with 409, writing nothing', async () => {
    const me = await trader();
    const key = randomUUID();
    const first = await place(me, { amount: 7 }, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    const before = await counts();
    for (const other of [{ amount: 8 }, { direction: 'DOWN' }, { duration: 120 }, { pair: 'EURUSD' }]) {
      const res = await place(me, { amount: 7, ...other }, { 'idempotency-key': key });
      expect(res.statusCode, JSON.stringify(other)).toBe(409);
      expect(res.json()).toEqual({
        detail: 'This idempotency key was already used for a different request',
        code: 'IDEMPOTENCY_CONFLICT',
      });
    }
    expect(await counts()).toEqual(before);
    expect((await place(me, { amount: 7 }, { 'idempotency-key': key })).json().id).toBe(first.json().id);
  });

  it('lets exactly 10 of 100 parallel placements through when the balance affords 10', async () => {
    const me = await trader(100);
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => place(me, { account_type: 'real', amount: 10 })),
    );
    const accepted = responses.filter((r) => r.statusCode === 201);
    const refused = responses.filter((r) => r.statusCode === 400);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(90);
    expect(refused.every((r) => r.json().detail === 'Insufficient balance')).toBe(true);
    expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 0, real_in_play: 10_000 });
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });
});

describe('GET /api/trades/active and /api/trades/history', () => {
  it('lists pending trades until they expire, and every trade newest first', async () => {
    const me = await trader();
    const first = (await place(me, { duration: 60 })).json();
    harness.clock.advance(1_000);
    prices.set('BTCUSDT', { price: 97_001, atMs: harness.clock.nowMs() });
    const second = (await place(me, { duration: 300, direction: 'DOWN' })).json();

    const active = await harness.app.inject({ url: '/api/trades/active', headers: bearer(me.token) });
    expect(active.statusCode).toBe(200);
    expect(active.json().map((t: { id: string }) => t.id)).toEqual([first.id, second.id]);
    expect(Object.keys(active.json()[0]).sort()).toEqual(
      [
        'account_type',
        'amount',
        'created_at',
        'direction',
        'entry_price',
        'expiry_ts',
        'id',
        'pair',
        'payout_pct',
        'status',
      ].sort(),
    );

    harness.clock.advance(60_000);
    const later = await harness.app.inject({ url: '/api/trades/active', headers: bearer(me.token) });
    expect(later.json().map((t: { id: string }) => t.id)).toEqual([second.id]);

    const history = await harness.app.inject({
      url: '/api/trades/history?limit=1',
      headers: bearer(me.token),
    });
    expect(history.json().map((t: { id: string }) => t.id)).toEqual([second.id]);
    const all = await harness.app.inject({ url: '/api/trades/history', headers: bearer(me.token) });
    expect(all.json().map((t: { id: string }) => t.id)).toEqual([second.id, first.id]);
    prices.set('BTCUSDT', { price: 97_000.5, atMs: harness.clock.nowMs() });
  });

  it('caps the history limit and shows one trader nothing of another', async () => {
    const me = await trader();
    const other = await trader();
    await place(other, {});
    expect(
      (await harness.app.inject({ url: '/api/trades/history?limit=101', headers: bearer(me.token) }))
        .statusCode,
    ).toBe(400);
    expect(
      (await harness.app.inject({ url: '/api/trades/history', headers: bearer(me.token) })).json(),
    ).toEqual([]);
    expect(
      (await harness.app.inject({ url: '/api/trades/active', headers: bearer(me.token) })).json(),
    ).toEqual([]);
  });
});

describe('GET /api/trades/:id', () => {
  it('shows a trade to its owner and to admins only', async () => {
    const me = await trader();
    const other = await trader();
    const trade = (await place(me, {})).json();
    const mine = await harness.app.inject({ url: `/api/trades/${trade.id}`, headers: bearer(me.token) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ trade: { id: trade.id }, entry_window: [], exit_window: [] });
    const theirs = await harness.app.inject({ url: `/api/trades/${trade.id}`, headers: bearer(other.token) });
    expect(theirs.statusCode).toBe(404);
    await database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', other.id).execute();
    // The role travels in the access token, so the promotion shows from the next sign-in.
    const admin = await login(harness.app, other.email, other.password);
    const asAdmin = await harness.app.inject({
      url: `/api/trades/${trade.id}`,
      headers: bearer(admin.access_token),
    });
    expect(asAdmin.statusCode).toBe(200);
    expect(
      (await harness.app.inject({ url: '/api/trades/not-a-uuid', headers: bearer(me.token) })).statusCode,
    ).toBe(400);
  });
});
