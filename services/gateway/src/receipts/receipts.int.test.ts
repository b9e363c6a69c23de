import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlaceTrade } from '@updown/order';
import { settledTradesReadable } from '@updown/order/testing';
import { signCheckpoints } from '@updown/price-ingest';
import { storeTicks } from '@updown/price-ingest/testing';
import { createMetricsRegistry, generateSigningKey } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { issueReceipts, settleBatch } from '@updown/settlement';
import { verifyReceipt } from '@updown/verify';
import { nodeCrypto } from '@updown/verify/node';
import { getUserBalances } from '@updown/wallet';
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
import { createReceiptsPlugin, KEY_SET_PATH } from './receipts.routes';

let database: TestDatabase;
let harness: AuthTestApp;
const key = generateSigningKey();
const prices = new Map<string, { price: number; atMs: number }>();

beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
  const clock = { nowMs: () => harness.clock.nowMs(), setTimeout: () => () => undefined };
  const placeTrade = createPlaceTrade({
    db: database.db,
    prices: { get: (pair) => prices.get(pair) },
    clock,
    registry: createMetricsRegistry(),
  });
  const db = database.db;
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
      createReceiptsPlugin({ db, keySet: key.keySet }),
      createDisputesPlugin({ db, clock, keySet: key.keySet }),
    ],
  });
});
afterAll(async () => {
  await harness?.close();
  await database?.drop();
});

const app = () => harness.app;

async function trader() {
  const account = newAccount('trader');
  const { id } = await register(app(), account);
  const { access_token } = await login(app(), account.email, account.password);
  return { id, token: access_token };
}

/** A trader's 60 s demo trade UP on EURUSD from 1.1, exiting at `exit`; settled, optionally with its receipt. */
async function tradeOf(
  who: { token: string },
  exit: number,
  options: { settle?: boolean; receipt?: boolean } = {},
) {
  const t = harness.clock.nowMs();
  await storeTicks(database.db, [{ pair: 'EURUSD', atMs: t, price: 1.1 }]);
  prices.set('EURUSD', { price: 1.1, atMs: t });
  const placed = await app().inject({
    method: 'POST',
    url: '/api/trades/place',
    headers: bearer(who.token),
    payload: { pair: 'EURUSD', direction: 'UP', amount: 10, duration: 60, account_type: 'demo' },
  });
  expect(placed.statusCode, placed.body).toBe(201);
  const id: string = placed.json().id;
  if (options.settle === false) return id;
  await storeTicks(database.db, [
    { pair: 'EURUSD', atMs: t + 59_500, price: exit },
    { pair: 'EURUSD', atMs: t + 60_300, price: 1.05 },
  ]);
  harness.clock.set(t + 61_000);
  await settleBatch(database.db, {
    due: [{ pair: 'EURUSD', dueBefore: t + 60_300 }],
    limit: 100,
    now: harness.clock.nowMs(),
  });
  if (options.receipt !== false) {
    await signCheckpoints(database.db, key, harness.clock);
    await settledTradesReadable(database.db, [id]);
    await issueReceipts(database.db, { key, nowMs: harness.clock.nowMs(), batch: 1_000, waitMsMax: 300_000 });
  }
  return id;
}

describe('GET /.well-known/updown-keys.json and /api/checkpoints', () => {
  it('publishes the key set and the signed checkpoints without a login', async () => {
    const keys = await app().inject({ method: 'GET', url: KEY_SET_PATH });
    expect(keys.statusCode).toBe(200);
    expect(keys.json()).toEqual(JSON.parse(JSON.stringify(key.keySet)));
    expect(keys.headers['cache-control']).toBe('public, max-age=300');

    await storeTicks(database.db, [{ pair: 'GBPUSD', atMs: harness.clock.nowMs(), price: 1.3 }]);
    await signCheckpoints(database.db, key, harness.clock);
    const list = await app().inject({ method: 'GET', url: '/api/checkpoints?pair=gbpusd&limit=5' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()[0]).toMatchObject({
      checkpoint: { type: 'updown.checkpoint.v1', pair: 'GBPUSD', fromSeq: 1, toSeq: 1, ticks: 1 },
      signature: { alg: 'Ed25519', kid: key.kid },
    });
  });

  it('refuses a bad query with a 400 and a detail', async () => {
    for (const url of [
      '/api/checkpoints',
      '/api/checkpoints?pair=EURUSD&limit=0',
      '/api/checkpoints?pair=EURUSD&limit=5000',
    ]) {
      const res = await app().inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().detail).toEqual(expect.any(String));
    }
  });
});

describe('GET /api/trades/:id/receipt', () => {
  it('serves the owner (and an admin) a receipt that verifies, and strangers a 404', async () => {
    const me = await trader();
    const id = await tradeOf(me, 1.12);
    const res = await app().inject({
      method: 'GET',
      url: `/api/trades/${id}/receipt`,
      headers: bearer(me.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const document = res.json();
    expect(document.receipt).toMatchObject({
      tradeId: id,
      outcome: 'won',
      rule: 'exit_above_entry',
      pnlCents: 800,
    });
    expect((await verifyReceipt(document, key.keySet, nodeCrypto)).verdict).toBe('valid');

    const history = await app().inject({
      method: 'GET',
      url: '/api/trades/history',
      headers: bearer(me.token),
    });
    const listed = history.json().find((t: { id: string }) => t.id === id);
    expect(listed).toMatchObject({
      receipt_id: document.receipt.receiptId,
      expiry_at_ms: document.receipt.expiryAtMs,
    });
    expect(listed.settled_at_ms).toBe(document.receipt.settledAtMs);

    const admin = await adminToken(app(), database.db);
    const asAdmin = await app().inject({
      method: 'GET',
      url: `/api/trades/${id}/receipt`,
      headers: bearer(admin),
    });
    expect(asAdmin.statusCode).toBe(200);
    const stranger = await trader();
    const other = await app().inject({
      method: 'GET',
      url: `/api/trades/${id}/receipt`,
      headers: bearer(stranger.token),
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ code: 'NOT_FOUND', detail: 'Trade not found' });
    const anonymous = await app().inject({ method: 'GET', url: `/api/trades/${id}/receipt` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 409 RECEIPT_PENDING for an open trade and before the checkpoint, 400 for a bad id', async () => {
    const me = await trader();
    const open = await tradeOf(me, 1.12, { settle: false });
    const pending = await app().inject({
      method: 'GET',
      url: `/api/trades/${open}/receipt`,
      headers: bearer(me.token),
    });
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({
      code: 'RECEIPT_PENDING',
      detail: expect.stringMatching(/still open/),
    });
    harness.clock.set(harness.clock.nowMs() + 120_000);
    const unsigned = await tradeOf(me, 1.12, { receipt: false });
    const waiting = await app().inject({
      method: 'GET',
      url: `/api/trades/${unsigned}/receipt`,
      headers: bearer(me.token),
    });
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().detail).toMatch(/signed checkpoint/);
    const bad = await app().inject({
      method: 'GET',
      url: '/api/trades/not-a-uuid/receipt',
      headers: bearer(me.token),
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('disputes over HTTP', () => {
  it('a trader disputes and sees the verdict at once; an admin confirms; the trader sees it resolved; the audit records it', async () => {
    const me = await trader();
    const id = await tradeOf(me, 1.12);
    const res = await app().inject({
      method: 'POST',
      url: `/api/trades/${id}/disputes`,
      headers: bearer(me.token),
      payload: { reason: 'The chart showed a lower price' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const dispute = res.json();
    expect(dispute).toMatchObject({
      trade_id: id,
      pair: 'EURUSD',
      status: 'open',
      replay: {
        verdict: 'confirmed',
        recorded: { outcome: 'won', pnl: 8 },
        replayed: { outcome: 'won', pnl: 8 },
      },
      correction: null,
      resolved_at: null,
    });
    const again = await app().inject({
      method: 'POST',
      url: `/api/trades/${id}/disputes`,
      headers: bearer(me.token),
      payload: { reason: 'again' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'DISPUTE_ALREADY_OPEN', detail: expect.any(String) });

    const admin = await adminToken(app(), database.db);
    const queue = await app().inject({
      method: 'GET',
      url: '/api/admin/disputes?status=open',
      headers: bearer(admin),
    });
    expect(queue.statusCode).toBe(200);
    expect(queue.json().disputes.find((d: { id: string }) => d.id === dispute.id)).toMatchObject({
      user_id: me.id,
      user_email: expect.stringContaining('@'),
    });
    const traderTries = await app().inject({
      method: 'GET',
      url: '/api/admin/disputes',
      headers: bearer(me.token),
    });
    expect(traderTries.statusCode).toBe(403);

    const correct = await app().inject({
      method: 'POST',
      url: `/api/admin/disputes/${dispute.id}/resolve`,
      headers: bearer(admin),
      payload: { decision: 'correct', note: 'no' },
    });
    expect(correct.statusCode).toBe(409);
    expect(correct.json().code).toBe('NOTHING_TO_CORRECT');
    const confirm = await app().inject({
      method: 'POST',
      url: `/api/admin/disputes/${dispute.id}/resolve`,
      headers: bearer(admin),
      payload: { decision: 'confirm', note: 'The exit tick at expiry stands' },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(confirm.json()).toMatchObject({
      status: 'confirmed',
      resolution_note: 'The exit tick at expiry stands',
      resolved_by: expect.stringContaining('@'),
    });
    const mine = await app().inject({ method: 'GET', url: '/api/disputes', headers: bearer(me.token) });
    expect(mine.json()).toEqual([expect.objectContaining({ id: dispute.id, status: 'confirmed' })]);
    const audit = await database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('target', '=', dispute.id)
      .execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'dispute.confirm' })]);
  });

  it('refuses bad input with a 400 and a detail, and changes nothing', async () => {
    const me = await trader();
    const id = await tradeOf(me, 1.12);
    const balances = await getUserBalances(database.db, me.id);
    for (const payload of [
      {},
      { reason: '' },
      { reason: 'x'.repeat(501) },
      { reason: 'ok', extra: 1 },
      { reason: 5 },
    ]) {
      const res = await app().inject({
        method: 'POST',
        url: `/api/trades/${id}/disputes`,
        headers: bearer(me.token),
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail).toEqual(expect.any(String));
    }
    const admin = await adminToken(app(), database.db);
    const bad = await app().inject({
      method: 'POST',
      url: `/api/admin/disputes/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/resolve`,
      headers: bearer(admin),
      payload: { decision: 'pay', note: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from trade_disputes where trade_id = ${id}`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
    expect(await getUserBalances(database.db, me.id)).toEqual(balances);
  });
});
