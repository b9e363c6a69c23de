import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { bookDrift, createPlaceTrade, settleIntoBooks, type PriceSource } from '@updown/order';
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
import { createTradesPlugin, type EvidenceLoader } from '../trades/trades.routes';
import { createAdminPlugin } from './admin.routes';

let database: TestDatabase;
let app: AuthTestApp;
let admin: { id: string; token: string };
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

async function account(role: 'user' | 'admin' = 'user', realDollars = 0) {
  const details = newAccount('risk');
  const { id } = await register(app.app, details);
  if (role === 'admin') await database.db.updateTable('users').set({ role }).where('id', '=', id).execute();
  const { access_token } = await login(app.app, details.email, details.password);
  await fundUser(database.db, id, { realCents: realDollars * 100 });
  return { id, token: access_token };
}

function call(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  token: string,
  payload?: Record<string, unknown>,
) {
  return app.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

function place(token: string, payload: Record<string, unknown>) {
  return call('POST', '/api/trades/place', token, {
    pair: 'BTCUSDT',
    direction: 'UP',
    amount: 10,
    duration: 60,
    account_type: 'real',
    ...payload,
  });
}

/** The settings of a pair no admin configured, as the Risk overview shows them. */
const NO_CONTROLS = {
  exposure_cap_up: null,
  exposure_cap_down: null,
  skew_max_pct: 0,
  skew_full_at: 1_000,
  loss_limit: null,
  loss_window_min: 60,
};

async function setPairRisk(symbol: string, settings: Record<string, unknown>) {
  const res = await call('PUT', `/api/admin/risk/pairs/${symbol}`, admin.token, {
    ...NO_CONTROLS,
    ...settings,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function audits(action: string) {
  return database.db.selectFrom('admin_audit').selectAll().where('action', '=', action).execute();
}

async function pairOf(symbol: string) {
  // The admin's pairs list: the same pairs, with the same risk quotes, as GET /api/market/pairs.
  const res = await call('GET', '/api/admin/pairs', admin.token);
  return res
    .json<{ symbol: string; payout_up_pct: number; payout_down_pct: number; real_trading: string }[]>()
    .find((p) => p.symbol === symbol)!;
}

async function counts() {
  const { rows } = await sql<{ trades: number; postings: number; audits: number }>`
    select (select count(*)::int from trades) as trades, (select count(*)::int from ledger_postings) as postings,
           (select count(*)::int from admin_audit) as audits`.execute(database.db);
  return rows[0]!;
}

beforeAll(async () => {
  database = await createTestDatabase({ max: 40 });
  const clock = { nowMs: () => app.clock.nowMs(), setTimeout: () => () => undefined };
  const placeTrade = createPlaceTrade({ db: database.db, prices: priceSource, clock, registry });
  app = await authTestApp(database.db, {
    plugins: [
      createTradesPlugin({ db: database.db, order: { placeTrade }, clock, loadEvidence }),
      createAdminPlugin({ db: database.db, clock }),
    ],
  });
  for (const pair of ['BTCUSDT', 'EURUSD', 'ETHUSD', 'GBPUSD']) prices.set(pair, { price: 100, atMs: 0 });
  admin = await account('admin');
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

function freshPrices() {
  for (const [pair, tick] of prices) prices.set(pair, { ...tick, atMs: app.clock.nowMs() });
}

describe("a pair's risk settings", () => {
  it('are set by an admin, audited with before and after, and shown in the Risk overview', async () => {
    const risk = await setPairRisk('ethusd', {
      exposure_cap_up: 1_000,
      exposure_cap_down: 250.5,
      skew_max_pct: 10,
      skew_full_at: 500,
      loss_limit: 2_000,
      loss_window_min: 30,
    });
    expect(risk).toMatchObject({
      symbol: 'ETHUSD',
      payout_pct: 80,
      settings: {
        exposure_cap_up: 1_000,
        exposure_cap_down: 250.5,
        skew_max_pct: 10,
        skew_full_at: 500,
        loss_limit: 2_000,
        loss_window_min: 30,
      },
      up: { open_trades: 0, exposure: 0, cap: 1_000, used_pct: 0, payout_pct: 80 },
      suspended: false,
    });
    const [audit] = await audits('risk.pair');
    expect(audit).toMatchObject({ actor_id: admin.id, target: 'ETHUSD' });
    expect(audit!.before).toMatchObject({ exposure_cap_up: null, skew_max_pct: 0 });
    expect(audit!.after).toMatchObject({ exposure_cap_up: 1_000, skew_max_pct: 10 });
    const overview = await call('GET', '/api/admin/risk', admin.token);
    expect(overview.statusCode).toBe(200);
    expect(overview.json().pairs.find((p: { symbol: string }) => p.symbol === 'ETHUSD')).toMatchObject({
      settings: { exposure_cap_down: 250.5 },
    });
    expect(overview.json().trader_defaults).toEqual({ max_open_stake: null, max_open_trades: null });
  });

  it.each([
    [{ skew_max_pct: 51 }, /skew is a whole number of points from 0 to 50/],
    [{ skew_max_pct: 2.5 }, /skew is a whole number/],
    [{ loss_window_min: 4 }, /window is 5 to 1440 minutes/],
    [{ exposure_cap_up: -1 }, /at least \$0\.00/],
    [{ exposure_cap_down: 10.005 }, /at most 2 decimals/],
    [{ loss_limit: 0 }, /at least \$1\.00/],
    [{ skew_full_at: 0 }, /imbalance for the full skew/],
    [{ exposure_cap_up: '100' }, /numbers of dollars/],
  ])('refuses %j with 400 and a detail, changing nothing', async (bad, detail) => {
    const before = await counts();
    const res = await call('PUT', '/api/admin/risk/pairs/GBPUSD', admin.token, { ...NO_CONTROLS, ...bad });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toMatch(detail);
    expect(await counts()).toEqual(before);
  });

  it('answers amounts whose cents binary floating point cannot hold exactly (9353972.94, 1.01)', async () => {
    const pair = await setPairRisk('GBPUSD', {
      skew_full_at: 1.01,
      loss_limit: 1.15,
      exposure_cap_up: 9_353_972.94,
    });
    expect(pair.settings).toMatchObject({
      skew_full_at: 1.01,
      loss_limit: 1.15,
      exposure_cap_up: 9_353_972.94,
    });
    const caps = await call('PUT', '/api/admin/risk/traders', admin.token, {
      max_open_stake: 9_353_972.94,
      max_open_trades: null,
    });
    expect(caps.statusCode, caps.body).toBe(200);
    expect(caps.json()).toEqual({ max_open_stake: 9_353_972.94, max_open_trades: null });
    await call('PUT', '/api/admin/risk/traders', admin.token, {
      max_open_stake: null,
      max_open_trades: null,
    });
    await setPairRisk('GBPUSD', {});
  });

  it('refuses an unknown pair with 404 and a missing field with 400', async () => {
    const unknown = await call('PUT', '/api/admin/risk/pairs/NOPE', admin.token, NO_CONTROLS);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Unknown pair: NOPE', code: 'NOT_FOUND' });
    const { loss_window_min: _, ...missing } = NO_CONTROLS;
    const res = await call('PUT', '/api/admin/risk/pairs/GBPUSD', admin.token, missing);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBeTruthy();
  });

  it('are forgotten with the pair when it is deleted, and a new pair of that name starts without them', async () => {
    const added = await call('POST', '/api/admin/pairs', admin.token, {
      symbol: 'SOLUSD',
      display_name: 'SOL/USD',
    });
    expect(added.statusCode, added.body).toBe(201);
    await setPairRisk('SOLUSD', { exposure_cap_up: 10, loss_limit: 5 });
    expect((await call('DELETE', '/api/admin/pairs/SOLUSD', admin.token)).statusCode).toBe(200);
    const { rows } = await sql`select 1 from risk_pairs where pair = 'SOLUSD'`.execute(database.db);
    expect(rows).toHaveLength(0);
    expect(
      (await call('POST', '/api/admin/pairs', admin.token, { symbol: 'SOLUSD', display_name: 'SOL/USD' }))
        .statusCode,
    ).toBe(201);
    const overview = (await call('GET', '/api/admin/risk', admin.token)).json();
    expect(overview.pairs.find((p: { symbol: string }) => p.symbol === 'SOLUSD').settings).toEqual(
      NO_CONTROLS,
    );
    expect((await call('DELETE', '/api/admin/pairs/SOLUSD', admin.token)).statusCode).toBe(200);
  });

  it('is refused to a trader (403)', async () => {
    const trader = await account();
    expect((await call('GET', '/api/admin/risk', trader.token)).statusCode).toBe(403);
    expect((await call('PUT', '/api/admin/risk/pairs/BTCUSDT', trader.token, NO_CONTROLS)).statusCode).toBe(
      403,
    );
  });
});

describe('placement under the risk controls', () => {
  it('refuses a real trade that would take the direction past its exposure cap, moving nothing; demo and the other side go through', async () => {
    await setPairRisk('BTCUSDT', { exposure_cap_up: 20 });
    freshPrices();
    const trader = await account('user', 1_000);
    // $20 UP at 80% can cost the house $16; a second $10 would take it to $24 > $20.
    expect((await place(trader.token, { amount: 20 })).statusCode).toBe(201);
    const before = await counts();
    const refused = await place(trader.token, { amount: 10 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'EXPOSURE_CAP_REACHED',
      detail: 'BTCUSDT UP has reached its exposure limit; try a smaller amount or the other direction',
    });
    expect(await counts()).toEqual(before);
    expect(await getUserBalances(database.db, trader.id)).toMatchObject({
      real: 98_000,
      real_in_play: 2_000,
    });
    // $5 more fits exactly: $16 + $4 = $20.
    expect((await place(trader.token, { amount: 5 })).statusCode).toBe(201);
    expect((await place(trader.token, { amount: 1 })).statusCode).toBe(409);
    expect((await place(trader.token, { amount: 10, account_type: 'demo' })).statusCode).toBe(201);
    // A DOWN stake lowers UP's exposure: $10 DOWN makes room for $10 more UP ($20 + $8 − $10 = $18).
    expect((await place(trader.token, { amount: 10, direction: 'DOWN' })).statusCode).toBe(201);
    expect((await place(trader.token, { amount: 10 })).statusCode).toBe(201);
    const overview = (await call('GET', '/api/admin/risk', admin.token)).json();
    expect(overview.pairs.find((p: { symbol: string }) => p.symbol === 'BTCUSDT')).toMatchObject({
      up: { open_trades: 3, open_stake: 35, potential_profit: 28, exposure: 18, cap: 20, used_pct: 90 },
      down: { open_trades: 1, open_stake: 10, potential_profit: 8, exposure: -27 },
    });
    expect(await bookDrift(database.db)).toEqual([]);
    await setPairRisk('BTCUSDT', {});
  });

  it("skews the heavier side's payout, shows it in the pairs list, and refuses a placement shown a higher payout", async () => {
    await setPairRisk('EURUSD', { skew_max_pct: 10, skew_full_at: 100 });
    freshPrices();
    const trader = await account('user', 1_000);
    expect(await pairOf('EURUSD')).toMatchObject({
      payout_up_pct: 80,
      payout_down_pct: 80,
      real_trading: 'open',
    });
    const first = await place(trader.token, { pair: 'EURUSD', amount: 50, payout_pct: 80 });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().payout_pct).toBe(80);
    // $50 of imbalance is half the full skew: UP drops 5 points, DOWN stays.
    expect(await pairOf('EURUSD')).toMatchObject({ payout_up_pct: 75, payout_down_pct: 80 });
    const before = await counts();
    const stale = await place(trader.token, { pair: 'EURUSD', amount: 10, payout_pct: 80 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      code: 'PAYOUT_CHANGED',
      detail: 'The payout for UP on EURUSD is now 75%; please check it and place the trade again',
    });
    expect(await counts()).toEqual(before);
    const requoted = await place(trader.token, { pair: 'EURUSD', amount: 10, payout_pct: 75 });
    expect(requoted.statusCode).toBe(201);
    expect(requoted.json().payout_pct).toBe(75);
    // Without a payout the trade takes the one offered; the lighter side keeps the pair's payout.
    expect(
      (await place(trader.token, { pair: 'EURUSD', amount: 10, direction: 'DOWN' })).json().payout_pct,
    ).toBe(80);
    await setPairRisk('EURUSD', {});
  });

  it("caps a trader's open real trades and stake, by default and by their own lower caps", async () => {
    freshPrices();
    const trader = await account('user', 1_000);
    const other = await account('user', 1_000);
    const defaults = await call('PUT', '/api/admin/risk/traders', admin.token, {
      max_open_stake: 100,
      max_open_trades: 5,
    });
    expect(defaults.json()).toEqual({ max_open_stake: 100, max_open_trades: 5 });
    const above = await call('PUT', `/api/admin/users/${trader.id}/limits`, admin.token, {
      max_open_stake: 150,
      max_open_trades: null,
    });
    expect(above.statusCode).toBe(400);
    expect(above.json()).toEqual({
      code: 'INVALID_RISK_SETTINGS',
      detail: "A trader's cap can only be lower than the default (open stake $100.00)",
    });
    const own = await call('PUT', `/api/admin/users/${trader.id}/limits`, admin.token, {
      max_open_stake: null,
      max_open_trades: 2,
    });
    expect(own.json()).toEqual({ max_open_stake: null, max_open_trades: 2 });
    expect((await audits('risk.trader_limits')).at(-1)).toMatchObject({ target: trader.id });

    expect((await place(trader.token, { pair: 'GBPUSD', amount: 10 })).statusCode).toBe(201);
    expect((await place(trader.token, { pair: 'GBPUSD', amount: 10 })).statusCode).toBe(201);
    const third = await place(trader.token, { pair: 'GBPUSD', amount: 10 });
    expect(third.json()).toEqual({
      code: 'OPEN_TRADES_CAP_REACHED',
      detail: 'You may have at most 2 open real trades at a time; wait for one to settle',
    });
    expect((await place(trader.token, { pair: 'GBPUSD', amount: 10, account_type: 'demo' })).statusCode).toBe(
      201,
    );
    // The other trader has the default caps: $100 of open stake.
    expect((await place(other.token, { pair: 'GBPUSD', amount: 90 })).statusCode).toBe(201);
    const over = await place(other.token, { pair: 'GBPUSD', amount: 20 });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('OPEN_STAKE_CAP_REACHED');
    expect(over.json().detail).toMatch(/at most \$100\.00 in all/);
    const users = (await call('GET', '/api/admin/users', admin.token)).json();
    expect(users.find((u: { id: string }) => u.id === trader.id).limits).toEqual({
      max_open_stake: null,
      max_open_trades: 2,
    });
    expect(
      (await call('PUT', `/api/admin/users/${randomUUID()}/limits`, admin.token, own.json())).statusCode,
    ).toBe(404);
    await call('PUT', '/api/admin/risk/traders', admin.token, {
      max_open_stake: null,
      max_open_trades: null,
    });
    await call('PUT', `/api/admin/users/${trader.id}/limits`, admin.token, {
      max_open_stake: null,
      max_open_trades: null,
    });
  });

  it("suspends real placements when the loss breaker trips, keeps demo open, and resumes on the admin's word", async () => {
    await setPairRisk('GBPUSD', { loss_limit: 50, loss_window_min: 60 });
    freshPrices();
    const trader = await account('user', 1_000);
    const notSuspended = await call('POST', '/api/admin/risk/pairs/GBPUSD/resume', admin.token);
    expect(notSuspended.statusCode).toBe(409);
    expect(notSuspended.json().code).toBe('PAIR_NOT_SUSPENDED');
    // Settlement books $60 of trader winnings on the pair: the house is $60 down, past its $50 limit.
    const suspensions = await database.db
      .transaction()
      .execute((trx) =>
        settleIntoBooks(
          trx,
          [{ pair: 'GBPUSD', direction: 'UP', amountCents: 0, payoutPct: 80, pnlCents: 6_000 }],
          app.clock.nowMs(),
        ),
      );
    expect(suspensions).toEqual([expect.objectContaining({ pair: 'GBPUSD', windowPnlCents: -6_000 })]);
    expect(await pairOf('GBPUSD')).toMatchObject({ real_trading: 'suspended' });
    const before = await counts();
    const refused = await place(trader.token, { pair: 'GBPUSD' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'PAIR_SUSPENDED',
      detail: 'Real trading on GBPUSD is suspended by risk controls; demo trading is still open',
    });
    expect(await counts()).toEqual(before);
    expect((await place(trader.token, { pair: 'GBPUSD', account_type: 'demo' })).statusCode).toBe(201);
    const overview = (await call('GET', '/api/admin/risk', admin.token)).json();
    expect(overview.pairs.find((p: { symbol: string }) => p.symbol === 'GBPUSD')).toMatchObject({
      suspended: true,
      suspended_reason: 'House P/L −$60.00 over 60 min is below the limit of −$50.00',
      pnl_window: -60,
    });

    const resumed = await call('POST', '/api/admin/risk/pairs/GBPUSD/resume', admin.token);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ suspended: false, suspended_reason: null, pnl_window: 0 });
    expect((await audits('risk.resume')).at(-1)).toMatchObject({ actor_id: admin.id, target: 'GBPUSD' });
    expect((await place(trader.token, { pair: 'GBPUSD' })).statusCode).toBe(201);
    expect((await verifyLedger(database.db)).ok).toBe(true);
    await setPairRisk('GBPUSD', {});
  });
});

describe('the Risk overview', () => {
  it("shows a pair's house P/L today and over its window even without a breaker", async () => {
    await database.db
      .transaction()
      .execute((trx) =>
        settleIntoBooks(
          trx,
          [{ pair: 'USDJPY', direction: 'UP', amountCents: 0, payoutPct: 80, pnlCents: 1_000 }],
          app.clock.nowMs(),
        ),
      );
    const overview = (await call('GET', '/api/admin/risk', admin.token)).json();
    expect(overview.pairs.find((p: { symbol: string }) => p.symbol === 'USDJPY')).toMatchObject({
      pnl_today: -10,
      pnl_window: -10,
      suspended: false,
      settings: { loss_limit: null },
    });
  });
});

describe('the Users tab', () => {
  it('sorts by toxicity score with the score and its components', async () => {
    const [low, high] = [await account(), await account()];
    const now = app.clock.nowMs();
    await sql`
      insert into risk_trader_scores (user_id, score, trades, wins, z_score, after_move_pct, profit_factor, skill,
                                      latency, profit, window_days, computed_at_ms)
      values (${low.id}, 5, 40, 20, 0.1, 2, 0.9, 0.03, 0, 0, 7, ${now}),
             (${high.id}, 88, 300, 230, 7.5, 70.3, 2.1, 1, 1, 0.4, 7, ${now})`.execute(database.db);
    const res = await call('GET', '/api/admin/users?sort=toxicity', admin.token);
    expect(res.statusCode).toBe(200);
    const ids = res.json().map((u: { id: string }) => u.id);
    expect(ids.slice(0, 2)).toEqual([high.id, low.id]);
    expect(res.json()[0].toxicity).toMatchObject({
      score: 88,
      trades: 300,
      z_score: 7.5,
      after_move_pct: 70.3,
      profit_factor: 2.1,
      components: { skill: 1, latency: 1, profit: 0.4 },
    });
    expect((await call('GET', '/api/admin/users?sort=worst', admin.token)).statusCode).toBe(400);
    const overview = (await call('GET', '/api/admin/risk', admin.token)).json();
    expect(overview.top_traders[0]).toMatchObject({ user_id: high.id, toxicity: { score: 88 } });
  });
});
