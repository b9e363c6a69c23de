import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlaceTrade } from '@updown/order';
import { storeTicks } from '@updown/price-ingest/testing';
import { createMetricsRegistry, generateSigningKey } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { OPEN_DISPUTES_RETRY_AFTER_SEC, settleBatch } from '@updown/settlement';
import {
  adminToken,
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from '../auth/testing/auth-test-app';
import { createTradesPlugin } from '../trades/trades.routes';
import { createDisputesPlugin } from './disputes.routes';

/**
 * Dispute flooding over HTTP: a trader's filings are capped (open and per day, 429 with
 * Retry-After, exact under parallel filings), and the admins' list pages with a cursor and filters
 * so that every open dispute stays reachable however many one trader files.
 */

let database: TestDatabase;
let harness: AuthTestApp;
let admin: string;
const key = generateSigningKey();
const prices = new Map<string, { price: number; atMs: number }>();
/** Small enough to reach in a test; the defaults (20 open, 50 a day) are the same code. */
const LIMITS = { openPerTraderMax: 20, filedPerTraderPerDayMax: 22 };
const DAY_SEC = 24 * 60 * 60;

beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
  const db = database.db;
  const clock = { nowMs: () => harness.clock.nowMs(), setTimeout: () => () => undefined };
  const placeTrade = createPlaceTrade({
    db,
    prices: { get: (pair) => prices.get(pair) },
    clock,
    registry: createMetricsRegistry(),
  });
  harness = await authTestApp(db, {
    plugins: [
      createTradesPlugin({
        db,
        order: { placeTrade },
        clock,
        loadEvidence: async () => ({
          entry_tick: null,
          exit_tick: null,
          entry_window: [],
          exit_window: [],
          reference_check: null,
        }),
      }),
      createDisputesPlugin({ db, clock, keySet: key.keySet, limits: LIMITS }),
    ],
  });
  admin = await adminToken(harness.app, db);
});
afterAll(async () => {
  await harness?.close();
  await database?.drop();
});

const app = () => harness.app;

interface Trader {
  id: string;
  email: string;
  token: string;
}

async function trader(): Promise<Trader> {
  const account = newAccount('trader');
  const { id } = await register(app(), account);
  const { access_token } = await login(app(), account.email, account.password);
  return { id, email: account.email, token: access_token };
}

/** `count` one-dollar 60 s demo trades of `who` on EURUSD, placed together and settled. */
async function settledTrades(who: Trader, count: number): Promise<string[]> {
  const t = harness.clock.nowMs();
  await storeTicks(database.db, [{ pair: 'EURUSD', atMs: t, price: 1.1 }]);
  prices.set('EURUSD', { price: 1.1, atMs: t });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const placed = await app().inject({
      method: 'POST',
      url: '/api/trades/place',
      headers: bearer(who.token),
      payload: { pair: 'EURUSD', direction: 'UP', amount: 1, duration: 60, account_type: 'demo' },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    ids.push(placed.json().id);
  }
  await storeTicks(database.db, [
    { pair: 'EURUSD', atMs: t + 59_500, price: 1.12 },
    { pair: 'EURUSD', atMs: t + 60_300, price: 1.05 },
  ]);
  harness.clock.set(t + 61_000);
  await settleBatch(database.db, {
    due: [{ pair: 'EURUSD', dueBefore: t + 60_300 }],
    limit: 1_000,
    now: harness.clock.nowMs(),
  });
  return ids;
}

function fileDispute(who: Trader, tradeId: string) {
  return app().inject({
    method: 'POST',
    url: `/api/trades/${tradeId}/disputes`,
    headers: bearer(who.token),
    payload: { reason: 'The exit price looks wrong' },
  });
}

interface Page {
  disputes: {
    id: string;
    user_id: string;
    user_email: string | null;
    status: string;
    pair: string;
    created_at: string;
  }[];
  next_cursor: string | null;
}

async function adminPage(query: string): Promise<Page> {
  const res = await app().inject({
    method: 'GET',
    url: `/api/admin/disputes?${query}`,
    headers: bearer(admin),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every page of a query, following `next_cursor`; `between` runs after each page but the last. */
async function allPages(query: string, between?: (pageIndex: number) => Promise<void>): Promise<Page[]> {
  const pages = [await adminPage(query)];
  while (pages.at(-1)!.next_cursor !== null) {
    await between?.(pages.length - 1);
    pages.push(await adminPage(`${query}&cursor=${pages.at(-1)!.next_cursor}`));
    expect(pages.length).toBeLessThan(50);
  }
  return pages;
}

async function disputeCount(userId: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from trade_disputes where user_id = ${userId}`.execute(database.db);
  return rows[0]!.n;
}

describe('one trader floods the disputes', () => {
  let older: { id: string };
  let victim: Trader;
  let flooder: Trader;

  beforeAll(async () => {
    victim = await trader();
    const [own] = await settledTrades(victim, 1);
    const filed = await fileDispute(victim, own!);
    expect(filed.statusCode, filed.body).toBe(201);
    older = filed.json();

    flooder = await trader();
    const trades = await settledTrades(flooder, LIMITS.openPerTraderMax + 3);
    const answers = await Promise.all(trades.map((id) => fileDispute(flooder, id)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(LIMITS.openPerTraderMax);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(429);
      expect(answer.headers['retry-after']).toBe(String(OPEN_DISPUTES_RETRY_AFTER_SEC));
      expect(answer.json()).toEqual({
        code: 'OPEN_DISPUTES_CAP_REACHED',
        detail: `You already have ${LIMITS.openPerTraderMax} open disputes, the most one trader may have; you can file another once an admin has resolved one of them`,
      });
    }
  });

  it('stores exactly the open cap of parallel filings, and refuses the rest without storing them', async () => {
    expect(await disputeCount(flooder.id)).toBe(LIMITS.openPerTraderMax);
  });

  it('keeps the other trader’s older open dispute reachable by paging to the end', async () => {
    const pages = await allPages('status=open&limit=6');
    const ids = pages.flatMap((page) => page.disputes.map((d) => d.id));
    expect(pages.length).toBeGreaterThan(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.every((page) => page.disputes.length <= 6)).toBe(true);
    expect(pages.at(-1)!.disputes.map((d) => d.id)).toContain(older.id);
    expect(pages[0]!.disputes.map((d) => d.id)).not.toContain(older.id);
    const flooded = pages.flatMap((page) => page.disputes).filter((d) => d.user_id === flooder.id);
    expect(flooded).toHaveLength(LIMITS.openPerTraderMax);
  });

  it('finds it at once by the trader (email in any case, or id) and status filters', async () => {
    for (const query of [
      `trader=${encodeURIComponent(victim.email.toUpperCase())}`,
      `trader=${victim.id}&status=open`,
      `trader=${victim.id.toUpperCase()}&status=open&pair=eurusd`,
    ]) {
      const page = await adminPage(query);
      expect(
        page.disputes.map((d) => d.id),
        query,
      ).toEqual([older.id]);
      expect(page.next_cursor).toBeNull();
      expect(page.disputes[0]).toMatchObject({ user_email: victim.email, status: 'open', pair: 'EURUSD' });
    }
    expect((await adminPage(`trader=${victim.id}&status=confirmed`)).disputes).toEqual([]);
    expect((await adminPage(`trader=${victim.id}&pair=GBPUSD`)).disputes).toEqual([]);
    expect((await adminPage('trader=nobody%40example.com')).disputes).toEqual([]);
    const flooded = await adminPage(`trader=${flooder.id}&limit=${LIMITS.openPerTraderMax}`);
    expect(flooded.disputes).toHaveLength(LIMITS.openPerTraderMax);
    expect(flooded.next_cursor).toBeNull();
  });

  it('filters by filing time: from is inclusive, to exclusive', async () => {
    const [row] = (await adminPage(`trader=${victim.id}`)).disputes;
    const filedAtMs = Date.parse(row!.created_at);
    const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const ids = async (range: string) =>
      (await adminPage(`trader=${victim.id}&${range}`)).disputes.map((d) => d.id);
    expect(await ids(`from=${at(filedAtMs)}&to=${at(filedAtMs + 1)}`)).toEqual([older.id]);
    expect(await ids(`from=${at(filedAtMs + 1)}`)).toEqual([]);
    expect(await ids(`to=${at(filedAtMs)}`)).toEqual([]);
  });

  it('neither skips nor repeats a dispute when others are filed while an admin pages', async () => {
    const before = (await allPages('status=open&limit=200')).flatMap((p) => p.disputes.map((d) => d.id));
    const newcomer = await trader();
    const [fresh] = await settledTrades(newcomer, 1);
    const seen = (
      await allPages('status=open&limit=5', async (index) => {
        if (index === 0) expect((await fileDispute(newcomer, fresh!)).statusCode).toBe(201);
      })
    ).flatMap((p) => p.disputes.map((d) => d.id));
    expect(seen).toEqual(before);
    expect((await adminPage('status=open&limit=1')).disputes[0]!.user_id).toBe(newcomer.id);
  });
});

describe('the daily cap', () => {
  it('counts resolved disputes too, and says with Retry-After when a slot frees', async () => {
    const busy = await trader();
    const trades = await settledTrades(busy, LIMITS.filedPerTraderPerDayMax + 1);
    const firstAtMs = harness.clock.nowMs();
    const first = await Promise.all(
      trades.slice(0, LIMITS.openPerTraderMax).map((id) => fileDispute(busy, id)),
    );
    expect(first.every((answer) => answer.statusCode === 201)).toBe(true);
    for (const answer of first.slice(0, 2)) {
      const resolved = await app().inject({
        method: 'POST',
        url: `/api/admin/disputes/${answer.json().id}/resolve`,
        headers: bearer(admin),
        payload: { decision: 'confirm', note: 'The settlement stands' },
      });
      expect(resolved.statusCode, resolved.body).toBe(200);
    }
    // Five minutes on (access tokens last fifteen): the window frees its first slot 23 h 55 min later.
    harness.clock.set(firstAtMs + 5 * 60 * 1000);
    const rest = trades.slice(LIMITS.openPerTraderMax);
    expect((await fileDispute(busy, rest[0]!)).statusCode).toBe(201);
    expect((await fileDispute(busy, rest[1]!)).statusCode).toBe(201);
    const over = await fileDispute(busy, rest[2]!);
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBe(String(DAY_SEC - 5 * 60));
    expect(over.json()).toEqual({
      code: 'DAILY_DISPUTES_CAP_REACHED',
      detail: `At most ${LIMITS.filedPerTraderPerDayMax} disputes can be filed in 24 hours; try again in 23 h 55 min`,
    });
    expect(await disputeCount(busy.id)).toBe(LIMITS.filedPerTraderPerDayMax);
  });
});

describe('bad input', () => {
  it('answers a bad filter or cursor with a 400 and a detail', async () => {
    const good = await adminPage('limit=1');
    expect(good.next_cursor).toEqual(expect.any(String));
    // Its first character spells the format's version: changed, the rest no longer reads as a cursor.
    const tampered = `Y${good.next_cursor!.slice(1)}`;
    const cases: [string, RegExp][] = [
      ['limit=0', /limit is a whole number from 1 to 200/],
      ['limit=201', /limit is a whole number from 1 to 200/],
      ['limit=many', /limit/],
      ['status=pending', /status is open, confirmed or corrected/],
      ['trader=nobody', /trader is a user id or an email address/],
      ['trader=', /trader/],
      ['pair=EUR%2FUSD', /pair must be a pair symbol/],
      ['from=yesterday', /from is a date and time/],
      ['to=2026-13-01T00:00:00Z', /to is a date and time/],
      ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', /from must be earlier than to/],
      ['cursor=not%20a%20cursor', /cursor is not one this list gave out/],
      ['cursor=abc', /cursor is not one this list gave out/],
      [`cursor=${tampered}`, /cursor is not one this list gave out/],
      [`cursor=${'A'.repeat(129)}`, /cursor is not one this list gave out/],
    ];
    for (const [query, detail] of cases) {
      const res = await app().inject({
        method: 'GET',
        url: `/api/admin/disputes?${query}`,
        headers: bearer(admin),
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ code: 'VALIDATION', detail: expect.stringMatching(detail) });
    }
  });

  it('keeps the list admin-only', async () => {
    const someone = await trader();
    const res = await app().inject({
      method: 'GET',
      url: '/api/admin/disputes',
      headers: bearer(someone.token),
    });
    expect(res.statusCode).toBe(403);
    expect((await app().inject({ method: 'GET', url: '/api/admin/disputes' })).statusCode).toBe(401);
  });
});
