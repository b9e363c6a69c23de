import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createMetricsRegistry } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { buildOrderApp, createHttpOrderPort, createPlaceTrade, type PriceSource } from '@updown/order';
import { getUserBalances, verifyLedger } from '@updown/wallet';
import {
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from '../auth/testing/auth-test-app';
import { createTradesPlugin, type EvidenceLoader } from './trades.routes';

/**
 * The gateway → order seam when they run apart: the same public behaviour as the in-process call
 * (statuses, texts, idempotency), a service token the order service insists on, and a clear 503
 * that changes nothing when the order service cannot be reached or refuses the gateway.
 */

const TOKEN = 'a-service-token-for-tests-only-0123456789';
const silent = createLogger({ level: 'silent', name: 'test' });
const prices = new Map<string, { price: number; atMs: number }>();
const priceSource: PriceSource = { get: (pair) => prices.get(pair) };
const loadEvidence: EvidenceLoader = async () => ({
  entry_tick: null,
  exit_tick: null,
  entry_window: [],
  exit_window: [],
  reference_check: null,
});

let database: TestDatabase;
let order: ReturnType<typeof buildOrderApp>;
let orderUrl: string;
let gateway: AuthTestApp;
let wrongToken: AuthTestApp;
let unreachable: AuthTestApp;
let tooSlow: AuthTestApp;
let inProcess: AuthTestApp;
/** Takes each call and never answers it. */
let silentOrder: Server;

async function traderToken(app: AuthTestApp) {
  const account = newAccount('seam');
  const { id } = await register(app.app, account);
  const { access_token } = await login(app.app, account.email, account.password);
  return { id, headers: bearer(access_token) };
}

async function counts() {
  const { rows } = await sql<{ trades: number; postings: number }>`
    select (select count(*) from trades)::int as trades, (select count(*) from ledger_postings)::int as postings`.execute(
    database.db,
  );
  return rows[0]!;
}

const clock = { nowMs: () => Date.now(), setTimeout: () => () => undefined };
const ports: { close(): Promise<void> }[] = [];

function gatewayWith(url: string, token: string, timeoutMs = 2_000) {
  const port = createHttpOrderPort({ url, serviceToken: token, timeoutMs });
  ports.push(port);
  return authTestApp(database.db, {
    plugins: [createTradesPlugin({ db: database.db, order: port, clock, loadEvidence })],
  });
}

beforeAll(async () => {
  database = await createTestDatabase({ max: 10 });
  const placeTrade = createPlaceTrade({ db: database.db, prices: priceSource, clock });
  order = buildOrderApp({
    placeTrade,
    db: database.db,
    registry: createMetricsRegistry({ service: 'order' }),
    logger: silent,
    serviceToken: TOKEN,
  });
  await order.listen({ host: '127.0.0.1', port: 0 });
  orderUrl = `http://127.0.0.1:${(order.server.address() as AddressInfo).port}`;
  gateway = await gatewayWith(orderUrl, TOKEN);
  wrongToken = await gatewayWith(orderUrl, 'not-the-token-the-order-service-expects');
  // A port nothing listens on: the one the order app had before it was closed would race; port 9 (discard) is closed on loopback.
  unreachable = await gatewayWith('http://127.0.0.1:9', TOKEN);
  silentOrder = createServer(() => undefined);
  await new Promise<void>((resolve) => silentOrder.listen(0, '127.0.0.1', resolve));
  const silentUrl = `http://127.0.0.1:${(silentOrder.address() as AddressInfo).port}`;
  tooSlow = await gatewayWith(silentUrl, TOKEN, 300);
  // The single process's route: the same handler called in-process, answered by the gateway's view.
  inProcess = await authTestApp(database.db, {
    plugins: [createTradesPlugin({ db: database.db, order: { placeTrade }, clock, loadEvidence })],
  });
});

afterAll(async () => {
  await Promise.all([gateway, wrongToken, unreachable, tooSlow, inProcess].map((app) => app?.close()));
  await Promise.all(ports.map((port) => port.close()));
  silentOrder?.closeAllConnections();
  await new Promise((resolve) => silentOrder?.close(resolve));
  await order?.close();
  await database?.drop();
});

function place(app: AuthTestApp, headers: Record<string, string>, body: Record<string, unknown> = {}) {
  return app.app.inject({
    method: 'POST',
    url: '/api/trades/place',
    headers,
    payload: { pair: 'BTCUSDT', direction: 'UP', amount: 10, duration: 60, account_type: 'demo', ...body },
  });
}

describe('placement through the order service over HTTP', () => {
  it('places, holds the stake and answers a retry with the same key from the first trade', async () => {
    prices.set('BTCUSDT', { price: 97_123.25, atMs: Date.now() });
    const me = await traderToken(gateway);
    const first = await place(gateway, { ...me.headers, 'idempotency-key': 'seam-1' }, { amount: 12.34 });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      amount: 12.34,
      entry_price: 97_123.25,
      status: 'pending',
      duration: 60,
    });
    expect(Number.isNaN(Date.parse(first.json<{ created_at: string }>().created_at))).toBe(false);
    const retry = await place(gateway, { ...me.headers, 'idempotency-key': 'seam-1' }, { amount: 12.34 });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await getUserBalances(database.db, me.id)).toMatchObject({
      demo: 1_000_000 - 1_234,
      demo_in_play: 1_234,
    });
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it("sends on the order service's body: the same bytes and headers the in-process route answers", async () => {
    prices.set('BTCUSDT', { price: 97_010.5, atMs: Date.now() });
    const me = await traderToken(gateway);
    const headers = { ...me.headers, 'idempotency-key': 'seam-bytes' };
    const placed = await place(gateway, headers, { amount: 3.21, direction: 'DOWN' });
    expect(placed.statusCode, placed.body).toBe(201);
    // A replay in the single process renders the same stored trade with the gateway's own view.
    const here = await place(inProcess, headers, { amount: 3.21, direction: 'DOWN' });
    const there = await place(gateway, headers, { amount: 3.21, direction: 'DOWN' });
    expect(here.statusCode).toBe(200);
    expect(there.statusCode).toBe(200);
    expect(there.body).toBe(here.body);
    expect(placed.body).toBe(here.body);
    expect(there.headers['content-type']).toBe(here.headers['content-type']);
    expect(there.headers['content-length']).toBe(here.headers['content-length']);
    // The seam's own header stays between the gateway and the order service.
    expect(there.headers['x-trade-view']).toBeUndefined();
    // What the order service itself answers for a pending trade is that body, marked as public.
    const direct = await fetch(`${orderUrl}/internal/trades/place`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({
        user_id: me.id,
        pair: 'BTCUSDT',
        direction: 'DOWN',
        amount_cents: 321,
        duration_sec: 60,
        account_type: 'demo',
        idempotency_key: 'seam-bytes',
      }),
    });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('x-trade-view')).toBe('public');
    expect(await direct.text()).toBe(here.body);
  });

  it('renders a replayed trade that has settled, with its receipt id, as the in-process route does', async () => {
    prices.set('BTCUSDT', { price: 97_020, atMs: Date.now() });
    const me = await traderToken(gateway);
    const headers = { ...me.headers, 'idempotency-key': 'seam-settled' };
    const placed = await place(gateway, headers);
    expect(placed.statusCode, placed.body).toBe(201);
    const { id } = placed.json<{ id: string }>();
    await sql`update trades set status = 'won', exit_price = 97030, pnl_cents = 800,
      settled_at_ms = expiry_at_ms where id = ${id}`.execute(database.db);
    const here = await place(inProcess, headers);
    const there = await place(gateway, headers);
    expect(there.statusCode, there.body).toBe(200);
    expect(there.json()).toMatchObject({ id, status: 'won', pnl: 8, receipt_id: expect.any(String) });
    expect(there.body).toBe(here.body);
  });

  it.each([
    [{ duration: 61 }, 400, 'Duration must be one of 60, 120, 180, 240, 300, 900, 1800, 2700, 3600 seconds'],
    [{ pair: 'NOPE' }, 400, 'Unknown pair: NOPE'],
    [{ account_type: 'real' }, 400, 'Insufficient balance'],
    [{ amount: 5_000.01 }, 400, 'Maximum trade amount is $5,000.00'],
  ])(
    'refuses %j with the same status and text as in one process, and changes nothing',
    async (body, status, detail) => {
      prices.set('BTCUSDT', { price: 97_000, atMs: Date.now() });
      const me = await traderToken(gateway);
      const before = await counts();
      const res = await place(gateway, me.headers, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ detail });
      expect(await counts()).toEqual(before);
    },
  );

  it.each([
    ['a gateway with the wrong service token', () => wrongToken],
    ['an order service that cannot be reached', () => unreachable],
    ['an order service that does not answer in time', () => tooSlow],
  ])('answers 503 ORDER_UNAVAILABLE for %s, and writes nothing', async (_name, app) => {
    prices.set('BTCUSDT', { price: 97_000, atMs: Date.now() });
    const me = await traderToken(app());
    const before = await counts();
    const res = await place(app(), me.headers);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toEqual({
      detail: 'Trading is temporarily unavailable, please try again',
      code: 'ORDER_UNAVAILABLE',
    });
    expect(await counts()).toEqual(before);
  });
});

describe('the order service HTTP API', () => {
  const command = {
    user_id: '00000000-0000-4000-8000-000000000001',
    pair: 'BTCUSDT',
    direction: 'UP',
    amount_cents: 1000,
    duration_sec: 60,
    account_type: 'demo',
  };

  it('refuses a call without the service token with 401 and a detail', async () => {
    const res = await fetch(`${orderUrl}/internal/trades/place`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(command),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'A valid service token is required', code: 'UNAUTHORIZED' });
  });

  // The gateway validated the public body this command came from and the token proves the sender,
  // so the shape is not checked again; the placement's own rules still refuse a bad amount.
  it.each([
    ['fractional cents', { ...command, amount_cents: 10.5 }],
    ['a string amount', { ...command, amount_cents: '1000' }],
  ])('refuses %s with 422 INVALID_AMOUNT and writes nothing', async (_name, body) => {
    const before = await counts();
    const res = await fetch(`${orderUrl}/internal/trades/place`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ code: 'INVALID_AMOUNT', detail: expect.any(String) });
    expect(await counts()).toEqual(before);
  });

  it('serves health, readiness and metrics on the same port', async () => {
    expect((await fetch(`${orderUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${orderUrl}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${orderUrl}/metrics`)).text()).toContain('# HELP');
  });
});
