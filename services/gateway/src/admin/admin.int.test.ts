import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances, mockPaymentProvider, verifyLedger } from '@updown/wallet';
import { walletHarness, type WalletHarness } from '../testing/wallet-harness';
import { createLogger } from '@updown/runtime';
import { recoverPayments, startPaymentRecovery } from '@updown/wallet';

let database: TestDatabase;
let h: WalletHarness;
let admin: { id: string; token: string };
let user: { id: string; token: string };

beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
  h = await walletHarness(database);
  admin = await h.admin();
  user = await h.user();
});
afterAll(async () => {
  await h.t.close();
  await database.drop();
});

async function audits(action: string) {
  return database.db.selectFrom('admin_audit').selectAll().where('action', '=', action).execute();
}

async function expectLedgerClean() {
  const report = await verifyLedger(database.db);
  expect(report.ok, JSON.stringify(report)).toBe(true);
}

describe('admin access', () => {
  it.each([
    ['GET', '/api/admin/pairs'],
    ['POST', '/api/admin/pairs'],
    ['PATCH', '/api/admin/pairs/BTCUSDT'],
    ['DELETE', '/api/admin/pairs/BTCUSDT'],
    ['GET', '/api/admin/settings'],
    ['POST', '/api/admin/settings'],
    ['GET', '/api/admin/deposits'],
    ['GET', '/api/admin/withdrawals'],
    ['POST', `/api/admin/deposits/${randomUUID()}`],
    ['POST', `/api/admin/withdrawals/${randomUUID()}`],
  ] as const)('%s %s: 401 for a visitor, 403 for a user', async (method, url) => {
    const payload = method === 'GET' || method === 'DELETE' ? undefined : {};
    expect((await h.call(method, url, undefined, payload)).statusCode).toBe(401);
    const res = await h.call(method, url, user.token, payload);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe('Admin access required');
  });
});

describe('pairs', () => {
  it('adds a pair with an upper-case symbol, OTC and the platform payout, once', async () => {
    const res = await h.call('POST', '/api/admin/pairs', admin.token, {
      symbol: 'solusd',
      display_name: 'SOL/USD',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      symbol: 'SOLUSD',
      display_name: 'SOL/USD',
      active: true,
      payout_pct: 80,
      provider: 'OTC',
      provider_symbol: null,
      reference_provider: null,
      reference_symbol: null,
      reference_spread_bps: null,
      // No feed has reported for it yet.
      feed_status: 'paused',
      // No risk settings: both sides are offered the pair's payout, and real trading is open.
      payout_up_pct: 80,
      payout_down_pct: 80,
      real_trading: 'open',
    });
    const dup = await h.call('POST', '/api/admin/pairs', admin.token, {
      symbol: 'SOLUSD',
      display_name: 'again',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe('Pair SOLUSD already exists');
    const list = (await h.call('GET', '/api/admin/pairs', admin.token)).json();
    expect(list.map((p: { symbol: string }) => p.symbol)).toContain('SOLUSD');
    expect(await audits('pair.create')).toHaveLength(1);
  });

  it('refuses empty and malformed fields', async () => {
    expect(
      (await h.call('POST', '/api/admin/pairs', admin.token, { symbol: ' ', display_name: 'x' })).json()
        .detail,
    ).toBe('Please fill all fields');
    expect(
      (await h.call('POST', '/api/admin/pairs', admin.token, { symbol: 'A B', display_name: 'x' }))
        .statusCode,
    ).toBe(400);
    expect((await h.call('POST', '/api/admin/pairs', admin.token, { symbol: 'ABC' })).statusCode).toBe(400);
  });

  it('disables and enables a pair, 404 for an unknown one', async () => {
    const off = await h.call('PATCH', '/api/admin/pairs/eurusd', admin.token, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ symbol: 'EURUSD', active: false });
    expect(
      (await h.call('PATCH', '/api/admin/pairs/EURUSD', admin.token, { active: true })).json().active,
    ).toBe(true);
    expect((await h.call('PATCH', '/api/admin/pairs/NOPE', admin.token, { active: true })).statusCode).toBe(
      404,
    );
    expect((await audits('pair.update')).length).toBe(2);
  });

  it('refuses to delete a pair with pending trades, and deletes it afterwards', async () => {
    await h.call('POST', '/api/admin/pairs', admin.token, { symbol: 'DOGEUSD', display_name: 'DOGE/USD' });
    const now = Date.now();
    const tradeId = randomUUID();
    await database.db
      .insertInto('trades')
      .values({
        id: tradeId,
        user_id: user.id,
        pair: 'DOGEUSD',
        direction: 'UP',
        account_type: 'demo',
        amount_cents: 1_000,
        stake_cash_cents: 1_000,
        stake_bonus_cents: 0,
        payout_pct: 80,
        duration_sec: 60,
        entry_price: 0.1,
        entry_at_ms: now,
        accepted_at_ms: now,
        expiry_at_ms: now + 60_000,
      })
      .execute();
    const refused = await h.call('DELETE', '/api/admin/pairs/DOGEUSD', admin.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/pending trades/);
    await database.db
      .updateTable('trades')
      .set({ status: 'void', settled_at_ms: now + 61_000, pnl_cents: 0 })
      .where('id', '=', tradeId)
      .execute();
    expect((await h.call('DELETE', '/api/admin/pairs/DOGEUSD', admin.token)).statusCode).toBe(200);
    expect((await h.call('DELETE', '/api/admin/pairs/DOGEUSD', admin.token)).statusCode).toBe(404);
    expect(await audits('pair.delete')).toHaveLength(1);
  });
});

describe('pair feeds', () => {
  const binance = {
    provider: 'BINANCE',
    provider_symbol: 'btc/usdt',
    reference_provider: 'COINBASE',
    reference_symbol: 'BTC-USD',
    reference_spread_bps: 50,
  };

  it("replaces a pair's feed and reference, audited, and lists it with its health", async () => {
    const res = await h.call('PUT', '/api/admin/pairs/btcusdt/feed', admin.token, binance);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      symbol: 'BTCUSDT',
      provider: 'BINANCE',
      provider_symbol: 'BTC/USDT',
      reference_provider: 'COINBASE',
      reference_symbol: 'BTC-USD',
      reference_spread_bps: 50,
      feed_status: 'paused',
    });
    const [audit] = await audits('pair.feed');
    expect(audit).toMatchObject({ target: 'BTCUSDT' });
    expect(JSON.stringify(audit!.after)).toContain('COINBASE');

    const feeds = await h.call('GET', '/api/admin/feeds', admin.token);
    expect(feeds.statusCode).toBe(200);
    const body = feeds.json();
    expect(body.providers).toEqual(['OTC', 'BINANCE', 'COINBASE', 'KRAKEN']);
    expect(body.items.find((item: { pair: string }) => item.pair === 'BTCUSDT')).toEqual({
      pair: 'BTCUSDT',
      active: true,
      feed_status: 'paused',
      divergence_bps: null,
      spread_bps: 50,
      // No price-ingest runs in this test: the feeds are not reporting.
      primary: expect.objectContaining({ provider: 'BINANCE', source_symbol: 'BTC/USDT', state: 'down' }),
      reference: expect.objectContaining({ provider: 'COINBASE', source_symbol: 'BTC-USD', state: 'down' }),
    });

    const back = await h.call('PUT', '/api/admin/pairs/BTCUSDT/feed', admin.token, { provider: 'OTC' });
    expect(back.json()).toMatchObject({ provider: 'OTC', provider_symbol: null, reference_provider: null });
    expect(await audits('pair.feed')).toHaveLength(2);
  });

  it('refuses a bad feed with a detail, changing nothing', async () => {
    const before = (await h.call('GET', '/api/admin/pairs', admin.token)).json();
    for (const [body, detail] of [
      [{ provider: 'NYSE' }, 'Provider must be one of OTC, BINANCE, COINBASE, KRAKEN'],
      // Providers are named exactly as the API answers them, as the document's enum says.
      [{ ...binance, provider: 'binance' }, 'Provider must be one of OTC, BINANCE, COINBASE, KRAKEN'],
      [
        { provider: 'OTC', reference_provider: 'OTC' },
        'The reference must be an exchange: BINANCE, COINBASE, KRAKEN',
      ],
      [{ provider: 'BINANCE' }, "BINANCE needs the exchange's symbol for the pair, e.g. BTC/USDT"],
      [
        { ...binance, reference_provider: 'BINANCE' },
        "The reference must be another provider than the pair's own feed",
      ],
      [
        { ...binance, reference_spread_bps: 0 },
        'The allowed spread must be a whole number of basis points from 1 to 1000',
      ],
      [{ ...binance, provider_symbol: 'BTC USDT' }, /exchange symbol looks like BTC\/USDT/i],
      [{ ...binance, extra: 1 }, /extra/],
    ] as const) {
      const res = await h.call('PUT', '/api/admin/pairs/BTCUSDT/feed', admin.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().detail).toMatch(detail);
    }
    const missing = await h.call('PUT', '/api/admin/pairs/NOPE/feed', admin.token, binance);
    expect(missing.statusCode).toBe(404);
    expect((await h.call('GET', '/api/admin/pairs', admin.token)).json()).toEqual(before);
    expect(await audits('pair.feed')).toHaveLength(2);
  });

  it('adds a pair on an exchange feed', async () => {
    const res = await h.call('POST', '/api/admin/pairs', admin.token, {
      symbol: 'solusdt',
      display_name: 'SOL/USDT',
      provider: 'KRAKEN',
      provider_symbol: 'SOL/USDT',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ symbol: 'SOLUSDT', provider: 'KRAKEN', provider_symbol: 'SOL/USDT' });
    const refused = await h.call('POST', '/api/admin/pairs', admin.token, {
      symbol: 'ADAUSDT',
      display_name: 'ADA/USDT',
      provider: 'KRAKEN',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'INVALID_FEED' });
    const list = (await h.call('GET', '/api/admin/pairs', admin.token)).json();
    expect(list.map((p: { symbol: string }) => p.symbol)).not.toContain('ADAUSDT');
  });
});

describe('settings', () => {
  it('reads and changes payout and approval; every pair follows the payout', async () => {
    expect((await h.call('GET', '/api/admin/settings', admin.token)).json()).toEqual({
      payout_pct: 80,
      require_deposit_approval: false,
    });
    const res = await h.call('POST', '/api/admin/settings', admin.token, {
      payout_pct: 85.5,
      require_deposit_approval: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ payout_pct: 85.5, require_deposit_approval: false });
    const rows = await database.db.selectFrom('market_pairs').select('payout_pct').execute();
    expect(new Set(rows.map((r) => r.payout_pct))).toEqual(new Set([85.5]));
    const [audit] = await audits('settings.update');
    expect(audit).toMatchObject({
      actor_id: admin.id,
      before: { payout_pct: 80 },
      after: { payout_pct: 85.5 },
    });
  });

  it.each([0, 101, -1, 100.5])('refuses payout %s with 400 and changes nothing', async (payout) => {
    const before = (await h.call('GET', '/api/admin/settings', admin.token)).json();
    const res = await h.call('POST', '/api/admin/settings', admin.token, {
      payout_pct: payout,
      require_deposit_approval: true,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Payout percentage must be between 1 and 100');
    expect((await h.call('GET', '/api/admin/settings', admin.token)).json()).toEqual(before);
  });
});

describe('deposit approval', () => {
  it('keeps a real deposit pending, moving no money, until an admin approves it; then credits the bonus', async () => {
    await h.call('POST', '/api/admin/settings', admin.token, { require_deposit_approval: true });
    try {
      const me = await h.user();
      const before = await h.postings();
      const res = await h.call('POST', '/api/wallet/deposit', me.token, {
        amount: 100,
        account_type: 'real',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'pending',
        real_balance: 0,
        bonus_balance: 0,
        request: { status: 'pending' },
      });
      expect(await h.postings()).toBe(before);
      // Demo is never held for approval.
      expect(
        (await h.call('POST', '/api/wallet/deposit', me.token, { amount: 5, account_type: 'demo' })).json()
          .status,
      ).toBe('completed');

      const id = res.json().request.id;
      const listed = (await h.call('GET', '/api/admin/deposits?status=pending', admin.token)).json();
      expect(listed[0]).toEqual({
        id,
        user_id: me.id,
        amount: 100,
        account_type: 'real',
        status: 'pending',
        created_at: expect.any(String),
      });

      const approved = await h.call('POST', `/api/admin/deposits/${id}`, admin.token, { action: 'approve' });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json().status).toBe('approved');
      expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 10_000, bonus: 5_000 });
      const again = await h.call('POST', `/api/admin/deposits/${id}`, admin.token, { action: 'reject' });
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe('Deposit request is already approved');
      expect(await audits('deposit.approve')).toHaveLength(1);
      await expectLedgerClean();
    } finally {
      await h.call('POST', '/api/admin/settings', admin.token, { require_deposit_approval: false });
    }
  });

  it('rejects a pending deposit without moving money; 404 for an unknown id, 400 for a bad action', async () => {
    await h.call('POST', '/api/admin/settings', admin.token, { require_deposit_approval: true });
    try {
      const me = await h.user();
      const id = (await h.call('POST', '/api/wallet/deposit', me.token, { amount: 30 })).json().request.id;
      const before = await h.postings();
      expect(
        (await h.call('POST', `/api/admin/deposits/${id}`, admin.token, { action: 'maybe' })).statusCode,
      ).toBe(400);
      expect(
        (await h.call('POST', `/api/admin/deposits/${id}`, admin.token, { action: 'reject' })).json().status,
      ).toBe('rejected');
      expect(await h.postings()).toBe(before);
      expect(
        (await h.call('POST', `/api/admin/deposits/${randomUUID()}`, admin.token, { action: 'approve' }))
          .statusCode,
      ).toBe(404);
      expect(
        (await h.call('POST', '/api/admin/deposits/not-a-uuid', admin.token, { action: 'approve' }))
          .statusCode,
      ).toBe(400);
    } finally {
      await h.call('POST', '/api/admin/settings', admin.token, { require_deposit_approval: false });
    }
  });
});

/** A gateway whose provider never answers a charge (the process dies mid-call); `status` is the mock's. */
function crashingHarness(): Promise<WalletHarness> {
  return walletHarness(database, {
    payments: {
      charge: async () => {
        throw new Error('process died');
      },
      status: mockPaymentProvider.status,
    },
  });
}

describe('deposit approval interrupted by a crash', () => {
  it('is completed at start-up, audited as the admin who approved it', async () => {
    const crashing = await crashingHarness();
    try {
      const approver = await crashing.admin();
      await crashing.call('POST', '/api/admin/settings', approver.token, { require_deposit_approval: true });
      const me = await crashing.user();
      const pending = await crashing.call('POST', '/api/wallet/deposit', me.token, { amount: 100 });
      const id = pending.json().request.id;
      const failed = await crashing.call('POST', `/api/admin/deposits/${id}`, approver.token, {
        action: 'approve',
      });
      expect(failed.statusCode).toBe(500);
      expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 0, bonus: 0 });

      crashing.clock.advance(120_000);
      const run = await recoverPayments({ db: database.db, clock: crashing.clock });
      expect(run.succeeded).toBeGreaterThanOrEqual(1);
      const row = await database.db
        .selectFrom('deposit_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect([row.status, row.decided_by, row.provider_ref]).toEqual(['approved', approver.id, `mock:${id}`]);
      expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 10_000, bonus: 5_000 });
      const audit = await database.db
        .selectFrom('admin_audit')
        .selectAll()
        .where('target', '=', id)
        .execute();
      expect(audit.map((a) => [a.action, a.actor_id])).toEqual([['deposit.approve', approver.id]]);
      const again = await crashing.call('POST', `/api/admin/deposits/${id}`, approver.token, {
        action: 'reject',
      });
      expect(again.json().detail).toBe('Deposit request is already approved');
      await expectLedgerClean();
    } finally {
      await crashing.call('POST', '/api/admin/settings', admin.token, { require_deposit_approval: false });
      await crashing.t.close();
    }
  });
});

describe('a deposit interrupted by a crash and an immediate restart', () => {
  it('is too young for the start-up pass and is settled by a later pass of the recovery', async () => {
    const crashing = await crashingHarness();
    try {
      const me = await crashing.user();
      const failed = await crashing.call('POST', '/api/wallet/deposit', me.token, { amount: 50 });
      expect(failed.statusCode).toBe(500);
      const recovery = await startPaymentRecovery({
        db: database.db,
        clock: crashing.clock,
        logger: createLogger({ level: 'silent', name: 'test' }),
      });
      try {
        expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 0 });
        // The passes after start, 30 s apart on the clock: the intent is old enough by the third.
        for (let pass = 1; (await getUserBalances(database.db, me.id)).real !== 5_000; pass++) {
          expect(pass, 'recovered within four passes').toBeLessThanOrEqual(4);
          crashing.clock.advance(30_000);
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      } finally {
        await recovery.stop();
      }
      await expectLedgerClean();
    } finally {
      await crashing.t.close();
    }
  });
});

describe('withdrawal decisions', () => {
  it('approves once when two admins click at the same moment; funds move once', async () => {
    const other = await h.admin();
    const me = await h.user();
    await h.call('POST', '/api/wallet/deposit', me.token, { amount: 10 });
    await h.call('POST', '/api/wallet/cancel-bonus', me.token);
    const id = (await h.call('POST', '/api/wallet/withdraw', me.token, { amount: 8 })).json().request.id;
    const [a, b] = await Promise.all([
      h.call('POST', `/api/admin/withdrawals/${id}`, admin.token, { action: 'approve' }),
      h.call('POST', `/api/admin/withdrawals/${id}`, other.token, { action: 'approve' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 200, withdrawal_hold: 0 });
    const payouts = await database.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('idempotency_key', '=', `withdrawal:${id}:payout`)
      .execute();
    expect(payouts).toHaveLength(1);
    expect(await audits('withdrawal.approve')).toHaveLength(1);
    await expectLedgerClean();
  });

  it('returns the held cash on rejection', async () => {
    // Requests are listed by creation time; this one is the newest.
    h.clock.advance(1_000);
    const me = await h.user();
    await h.call('POST', '/api/wallet/deposit', me.token, { amount: 10 });
    const id = (await h.call('POST', '/api/wallet/withdraw', me.token, { amount: 4 })).json().request.id;
    const res = await h.call('POST', `/api/admin/withdrawals/${id}`, admin.token, { action: 'reject' });
    expect(res.statusCode).toBe(200);
    expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 1_000, withdrawal_hold: 0 });
    const list = (await h.call('GET', '/api/admin/withdrawals?limit=1', admin.token)).json();
    expect(list).toEqual([
      {
        id,
        user_id: me.id,
        amount: 4,
        account_type: 'real',
        status: 'rejected',
        created_at: expect.any(String),
        // The harness clears withdrawals directly; no verification was ever submitted.
        identity_status: 'not_started',
      },
    ]);
    await expectLedgerClean();
  });
});

describe('GET /api/admin/users stats', () => {
  it('reports balances and settled real trades per user', async () => {
    const me = await h.user();
    await h.call('POST', '/api/wallet/deposit', me.token, { amount: 10 });
    const now = Date.now();
    const rows = [
      { status: 'won' as const, pnl: 800 },
      { status: 'lost' as const, pnl: -1_000 },
      { status: 'won' as const, pnl: 800 },
    ];
    for (const row of rows) {
      await database.db
        .insertInto('trades')
        .values({
          id: randomUUID(),
          user_id: me.id,
          pair: 'BTCUSDT',
          direction: 'UP',
          account_type: 'real',
          amount_cents: 1_000,
          stake_cash_cents: 1_000,
          stake_bonus_cents: 0,
          payout_pct: 80,
          duration_sec: 60,
          entry_price: 1,
          entry_at_ms: now,
          accepted_at_ms: now,
          expiry_at_ms: now + 60_000,
          status: row.status,
          settled_at_ms: now + 61_000,
          pnl_cents: row.pnl,
        })
        .execute();
    }
    const res = await h.call('GET', '/api/admin/users', admin.token);
    expect(res.statusCode).toBe(200);
    const mine = res.json().find((u: { id: string }) => u.id === me.id);
    expect(mine.stats).toEqual({
      real_balance: 10,
      demo_balance: 10_000,
      total_trades: 3,
      win_rate: 66.7,
      net_pnl: 6,
    });
  });
});
