import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances, startBonusExpiry, transfer, verifyLedger } from '@updown/wallet';
import { memoryLogger } from '../testing/test-app';
import { walletHarness, type WalletHarness } from '../testing/wallet-harness';

const DAY_MS = 86_400_000;
let database: TestDatabase;
let h: WalletHarness;

beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
  h = await walletHarness(database);
});
afterAll(async () => {
  await h.t.close();
  await database.drop();
});

async function expectLedgerClean() {
  const report = await verifyLedger(database.db);
  expect(report.ok, JSON.stringify(report)).toBe(true);
}

const deposit = (token: string, amount: unknown, account_type = 'real') =>
  h.call('POST', '/api/wallet/deposit', token, { amount, account_type });
const withdraw = (token: string, amount: unknown, account_type = 'real') =>
  h.call('POST', '/api/wallet/withdraw', token, { amount, account_type });
const wallet = async (token: string) => (await h.call('GET', '/api/wallet', token)).json();

describe('GET /api/wallet', () => {
  it('shows a new user 10,000 demo, nothing else, and no bonus', async () => {
    const me = await h.user();
    const res = await h.call('GET', '/api/wallet', me.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      real_balance: 0,
      demo_balance: 10_000,
      bonus_balance: 0,
      bonus_status: null,
      bonus_turnover_progress: 0,
      bonus_turnover_required: 0,
      bonus_expires_at: null,
      first_deposit_bonus_used: false,
      bonus_amount: 0,
      bonus_days_remaining: 0,
      bonus_max_stake: 0,
    });
  });

  it('refuses a visitor', async () => {
    for (const [method, url] of [
      ['GET', '/api/wallet'],
      ['GET', '/api/wallet/transactions'],
      ['POST', '/api/wallet/deposit'],
      ['POST', '/api/wallet/withdraw'],
      ['POST', '/api/wallet/cancel-bonus'],
    ] as const) {
      const res = await h.call(method, url, undefined, method === 'POST' ? { amount: 10 } : undefined);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().detail).toBeTruthy();
    }
  });
});

describe('deposits', () => {
  it('tops demo up at once, with no bonus', async () => {
    const me = await h.user();
    const res = await deposit(me.token, 250.5, 'demo');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'completed',
      amount: 250.5,
      request: null,
      demo_balance: 10_250.5,
    });
    expect(res.json().first_deposit_bonus_used).toBe(false);
    await expectLedgerClean();
  });

  it('credits $50 on a first $100 real deposit, turnover $1,750, max stake $10, 30 days', async () => {
    const me = await h.user();
    const res = await deposit(me.token, 100);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'completed',
      real_balance: 100,
      bonus_balance: 50,
      bonus_status: 'active',
      bonus_amount: 50,
      bonus_turnover_progress: 0,
      bonus_turnover_required: 1_750,
      bonus_days_remaining: 30,
      bonus_max_stake: 10,
      first_deposit_bonus_used: true,
    });
    expect(body.request).toMatchObject({
      user_id: me.id,
      amount: 100,
      account_type: 'real',
      status: 'approved',
    });
    expect(new Date(body.bonus_expires_at).getTime()).toBe(h.clock.nowMs() + 30 * DAY_MS);

    // The second deposit earns nothing more.
    const second = await deposit(me.token, 1_000);
    expect(second.json()).toMatchObject({ real_balance: 1_100, bonus_balance: 50, bonus_amount: 50 });
    await expectLedgerClean();
  });

  it('caps the bonus at $500 for a $2,000 deposit', async () => {
    const me = await h.user();
    expect((await deposit(me.token, 2_000)).json()).toMatchObject({
      bonus_balance: 500,
      bonus_turnover_required: 17_500,
      bonus_max_stake: 100,
    });
  });

  it('gives nothing for $19.99, and the bonus to the first qualifying deposit after it', async () => {
    const me = await h.user();
    expect((await deposit(me.token, 19.99)).json()).toMatchObject({
      bonus_balance: 0,
      bonus_status: null,
      first_deposit_bonus_used: false,
    });
    expect((await deposit(me.token, 20)).json()).toMatchObject({ bonus_balance: 10, bonus_status: 'active' });
  });

  it.each([
    [0, 'Please enter a valid amount'],
    [-5, 'Please enter a valid amount'],
    [10.001, 'Please enter a valid amount'],
    [100_000.01, 'Maximum deposit amount is $100,000.00'],
    ['10', 'amount must be number'],
  ])('refuses %j with 400 and moves nothing', async (amount, detail) => {
    const me = await h.user();
    const before = await h.postings();
    const res = await deposit(me.token, amount);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(detail);
    expect(await h.postings()).toBe(before);
  });

  it('refuses an unknown account type and unknown fields', async () => {
    const me = await h.user();
    const before = await h.postings();
    expect((await deposit(me.token, 10, 'gold')).statusCode).toBe(400);
    const extra = await h.call('POST', '/api/wallet/deposit', me.token, { amount: 10, bonus: true });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().detail).toBe('bonus is not allowed');
    expect(await h.postings()).toBe(before);
  });

  it('answers 402 and writes nothing when the provider declines', async () => {
    const declining = await walletHarness(database, {
      payments: {
        charge: async () => ({ status: 'failed', providerRef: 'x' }),
        status: async () => ({ status: 'failed', providerRef: 'x' }),
      },
    });
    try {
      const me = await declining.user();
      const before = await declining.postings();
      const res = await declining.call('POST', '/api/wallet/deposit', me.token, { amount: 50 });
      expect(res.statusCode).toBe(402);
      expect(res.json().detail).toMatch(/Deposit failed/);
      expect(await declining.postings()).toBe(before);
      expect(
        await database.db.selectFrom('deposit_requests').where('user_id', '=', me.id).selectAll().execute(),
      ).toEqual([]);
    } finally {
      await declining.t.close();
    }
  });
});

describe('transactions', () => {
  it('lists signed movements newest first, limited', async () => {
    const me = await h.user();
    await deposit(me.token, 100);
    await withdraw(me.token, 30);
    const res = await h.call('GET', '/api/wallet/transactions?limit=10', me.token);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((tx: { type: string; amount: number }) => [tx.type, tx.amount])).toEqual([
      ['bonus_forfeit', -50],
      ['withdrawal', -30],
      ['bonus_credit', 50],
      ['deposit', 100],
      ['demo_grant', 10_000],
    ]);
    expect(list[1]).toMatchObject({
      balance_after: 70,
      account_type: 'real',
      id: expect.any(Number),
      created_at: expect.any(String),
    });
    expect((await h.call('GET', '/api/wallet/transactions?limit=2', me.token)).json()).toHaveLength(2);
    expect((await h.call('GET', '/api/wallet/transactions?limit=201', me.token)).statusCode).toBe(400);
    expect((await h.call('GET', '/api/wallet/transactions?limit=0', me.token)).statusCode).toBe(400);
  });

  it('shows only the caller’s own movements', async () => {
    const a = await h.user();
    const b = await h.user();
    await deposit(a.token, 40);
    const list = (await h.call('GET', '/api/wallet/transactions', b.token)).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'demo_grant', amount: 10_000 });
  });
});

describe('withdrawals', () => {
  it('holds the cash at once in a pending request', async () => {
    const me = await h.user();
    await deposit(me.token, 10);
    const res = await withdraw(me.token, 7.5);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'pending',
      real_balance: 2.5,
      request: { status: 'pending', amount: 7.5 },
    });
    expect(await getUserBalances(database.db, me.id)).toMatchObject({ real: 250, withdrawal_hold: 750 });
    await expectLedgerClean();
  });

  it('refuses demo and more than the cash, moving nothing', async () => {
    const me = await h.user();
    await deposit(me.token, 10);
    const before = await h.postings();
    const demo = await withdraw(me.token, 5, 'demo');
    expect(demo.statusCode).toBe(400);
    expect(demo.json().detail).toBe('Demo funds cannot be withdrawn');
    const tooMuch = await withdraw(me.token, 10.01);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().detail).toBe('Insufficient balance');
    expect((await withdraw(me.token, 0)).json().detail).toBe('Please enter a valid amount');
    expect(await h.postings()).toBe(before);
    expect(
      await database.db.selectFrom('withdrawal_requests').where('user_id', '=', me.id).selectAll().execute(),
    ).toEqual([]);
  });

  it('does not count bonus money as withdrawable, and forfeits the bonus', async () => {
    const me = await h.user();
    await deposit(me.token, 100);
    expect((await withdraw(me.token, 100.01)).json().detail).toBe('Insufficient balance');
    expect((await wallet(me.token)).bonus_status).toBe('active');
    const res = await withdraw(me.token, 100);
    expect(res.json()).toMatchObject({
      real_balance: 0,
      bonus_balance: 0,
      bonus_status: 'forfeited',
      first_deposit_bonus_used: true,
    });
    // A forfeited bonus is never granted again.
    expect((await deposit(me.token, 100)).json()).toMatchObject({
      bonus_balance: 0,
      bonus_status: 'forfeited',
    });
    await expectLedgerClean();
  });
});

describe('Idempotency-Key on deposits and withdrawals', () => {
  const send = (url: string, token: string, key: string, amount: number, account_type = 'real') =>
    h.t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
      payload: { amount, account_type },
    });

  it('deposits once for a key retried from many connections at once, real and demo', async () => {
    const me = await h.user();
    const key = `dep-${me.id}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => send('/api/wallet/deposit', me.token, key, 30)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((r) => r.json().request.id)).size).toBe(1);
    const demoKey = `demo-${me.id}`;
    await Promise.all(
      Array.from({ length: 5 }, () => send('/api/wallet/deposit', me.token, demoKey, 5, 'demo')),
    );
    expect(await wallet(me.token)).toMatchObject({
      real_balance: 30,
      demo_balance: 10_005,
      bonus_balance: 15,
    });
    await expectLedgerClean();
  });

  it('holds a withdrawal once for a retried key, and refuses the key for another amount', async () => {
    const me = await h.user();
    await deposit(me.token, 100);
    const key = `wd-${me.id}`;
    const first = await send('/api/wallet/withdraw', me.token, key, 40);
    const again = await send('/api/wallet/withdraw', me.token, key, 40);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.json().request.id).toBe(first.json().request.id);
    expect((await wallet(me.token)).real_balance).toBe(60);
    const before = await h.postings();
    const other = await send('/api/wallet/withdraw', me.token, key, 41);
    expect(other.statusCode).toBe(409);
    expect(other.json().detail).toBe('This idempotency key was already used for a different request');
    expect(await h.postings()).toBe(before);
    await expectLedgerClean();
  });
});

describe('cancel bonus', () => {
  it('forfeits the active bonus back to the pool', async () => {
    const me = await h.user();
    await deposit(me.token, 60);
    const res = await h.call('POST', '/api/wallet/cancel-bonus', me.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      real_balance: 60,
      bonus_balance: 0,
      bonus_status: 'forfeited',
      bonus_max_stake: 0,
    });
    await expectLedgerClean();
  });

  it('accepts the empty body a browser sends with a JSON content type', async () => {
    const me = await h.user();
    await deposit(me.token, 60);
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/wallet/cancel-bonus',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ bonus_status: 'forfeited' });
  });

  it('says "No active bonus" without one, moving nothing', async () => {
    const me = await h.user();
    const before = await h.postings();
    const res = await h.call('POST', '/api/wallet/cancel-bonus', me.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'No active bonus', code: 'NO_ACTIVE_BONUS' });
    expect(await h.postings()).toBe(before);
  });
});

describe('bonus expiry', () => {
  it('expires a bonus 30 days after credit, counting days down on the clock', async () => {
    const me = await h.user();
    await deposit(me.token, 100);
    // A year between scheduled runs: this test drives the runs itself.
    const job = startBonusExpiry({
      db: database.db,
      clock: h.clock,
      logger: memoryLogger().logger,
      intervalMs: 365 * DAY_MS,
    });
    try {
      h.clock.advance(29 * DAY_MS + 1);
      expect((await wallet(me.token)).bonus_days_remaining).toBe(1);
      await job.runOnce();
      expect((await wallet(me.token)).bonus_status).toBe('active');
      h.clock.advance(DAY_MS);
      const run = await job.runOnce();
      expect(run.expired).toBeGreaterThanOrEqual(1);
      expect(await wallet(me.token)).toMatchObject({
        bonus_status: 'expired',
        bonus_balance: 0,
        bonus_days_remaining: 0,
        real_balance: 100,
      });
      await expectLedgerClean();
    } finally {
      await job.stop();
    }
  });

  it('returns bonus money that comes back after the bonus ended', async () => {
    const me = await h.user();
    await deposit(me.token, 100);
    await h.call('POST', '/api/wallet/cancel-bonus', me.token);
    // A bonus-funded stake settled after the cancel lands on `bonus` with no bonus active.
    await database.db.transaction().execute((trx) =>
      transfer(trx, {
        kind: 'trade_payout',
        idempotencyKey: randomUUID(),
        postings: [
          { account: { system: 'house_real' }, amountCents: -700 },
          { account: { owner: me.id, type: 'bonus' }, amountCents: 700 },
        ],
      }),
    );
    const job = startBonusExpiry({ db: database.db, clock: h.clock, logger: memoryLogger().logger });
    try {
      expect((await job.runOnce()).swept).toBeGreaterThanOrEqual(1);
      expect(await getUserBalances(database.db, me.id)).toMatchObject({ bonus: 0, real: 10_000 });
      await expectLedgerClean();
    } finally {
      await job.stop();
    }
  });
});
