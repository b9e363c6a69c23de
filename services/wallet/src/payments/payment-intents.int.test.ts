import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { deposit } from '../commands/wallet.commands';
import { getUserBalances, openUserAccounts } from '../ledger/ledger.repository';
import { verifyLedger } from '../ledger/verify';
import { recordPaymentResult, recoverPaymentIntents } from './payment-intents';
import { findIntent } from './payment-intents.repository';
import { mockPaymentProvider, type PaymentProvider, type PaymentResult } from './payment-provider';

let database: TestDatabase;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  database = await createTestDatabase({ max: 10 });
});
afterAll(async () => {
  await database.drop();
});

/** A user with open, empty ledger accounts (the wallet's part of sign-up). */
async function newUser(): Promise<string> {
  const id = randomUUID();
  await sql`insert into users (id, email, name, password_hash)
            values (${id}, ${`${id}@example.com`}, 'Payer', 'x')`.execute(database.db);
  await openUserAccounts(database.db, id);
  return id;
}

const postings = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from ledger_postings`.execute(database.db)).rows[0]!.n;

/** Connections of the pool checked out right now. */
const checkedOut = () => database.pool.totalCount - database.pool.idleCount;

/** A provider whose charges wait until the test releases them. */
function blockingProvider() {
  const waiting: (() => void)[] = [];
  let arrived: () => void = () => undefined;
  const called = new Promise<void>((resolve) => (arrived = resolve));
  const provider: PaymentProvider = {
    async charge({ reference }) {
      arrived();
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { status: 'succeeded', providerRef: `slow:${reference}` };
    },
    status: mockPaymentProvider.status,
  };
  return { provider, called, release: () => waiting.splice(0).forEach((resolve) => resolve()) };
}

describe('payments outside the money lock', () => {
  it('holds no lock and no pooled connection while the provider is slow', async () => {
    const userId = await newUser();
    const slow = blockingProvider();
    const deps = { db: database.db, clock, payments: slow.provider };
    const charging = deposit(deps, { userId, amountCents: 5_000, accountType: 'real' });
    await slow.called;
    // Another command of the same user takes the wallet lock and the ledger accounts meanwhile.
    await deposit(deps, { userId, amountCents: 700, accountType: 'demo' });
    expect(checkedOut()).toBe(0);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state like 'idle in transaction%'`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
    slow.release();
    const outcome = await charging;
    expect(outcome).toMatchObject({
      status: 'completed',
      request: { status: 'approved', provider_ref: expect.stringMatching(/^slow:/) },
    });
    expect(await getUserBalances(database.db, userId)).toMatchObject({
      real: 5_000,
      bonus: 2_500,
      demo: 700,
    });
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('recovers at start a deposit whose intent committed before a crash', async () => {
    const userId = await newUser();
    // The process dies while the provider is being asked: the intent is committed, nothing else.
    const crashing: PaymentProvider = {
      charge: async () => {
        throw new Error('process died');
      },
      status: mockPaymentProvider.status,
    };
    await expect(
      deposit(
        { db: database.db, clock, payments: crashing },
        { userId, amountCents: 3_000, accountType: 'real' },
      ),
    ).rejects.toThrow('process died');
    const [intent] = await database.db
      .selectFrom('payment_intents')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(intent).toMatchObject({ status: 'pending', kind: 'deposit', amount_cents: 3_000 });
    expect(await getUserBalances(database.db, userId)).toMatchObject({ real: 0 });

    // Too young to be presumed interrupted: left alone.
    const young = await recoverPaymentIntents({ db: database.db, clock, payments: mockPaymentProvider });
    expect(young).toEqual({ succeeded: 0, failed: 0, skipped: 0 });
    clock.advance(120_000);
    const run = await recoverPaymentIntents({ db: database.db, clock, payments: mockPaymentProvider });
    expect(run.succeeded).toBeGreaterThanOrEqual(1);
    expect(await findIntent(database.db, intent!.id)).toMatchObject({
      status: 'succeeded',
      provider_ref: `mock:${intent!.request_id}`,
    });
    const request = await database.db
      .selectFrom('deposit_requests')
      .selectAll()
      .where('id', '=', intent!.request_id)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({ user_id: userId, status: 'approved', amount_cents: 3_000 });
    expect(await getUserBalances(database.db, userId)).toMatchObject({ real: 3_000, bonus: 1_500 });

    // A second start-up finds nothing left to do.
    const before = await postings();
    expect(await recoverPaymentIntents({ db: database.db, clock, payments: mockPaymentProvider })).toEqual({
      succeeded: 0,
      failed: 0,
      skipped: 0,
    });
    expect(await postings()).toBe(before);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('records a charge the provider never saw as failed, moving nothing', async () => {
    const userId = await newUser();
    const lost: PaymentProvider = {
      charge: async () => {
        throw new Error('connection reset');
      },
      status: async () => ({ status: 'unknown' }),
    };
    const deps = { db: database.db, clock, payments: lost };
    await expect(deposit(deps, { userId, amountCents: 3_000, accountType: 'real' })).rejects.toThrow();
    const before = await postings();
    clock.advance(120_000);
    expect((await recoverPaymentIntents(deps)).failed).toBeGreaterThanOrEqual(1);
    const intents = await database.db
      .selectFrom('payment_intents')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(intents.map((i) => [i.status, i.provider_ref])).toEqual([['failed', null]]);
    expect(await postings()).toBe(before);
    expect(
      await database.db.selectFrom('deposit_requests').where('user_id', '=', userId).selectAll().execute(),
    ).toEqual([]);
  });

  it('moves nothing when the same result is recorded again', async () => {
    const userId = await newUser();
    let result: PaymentResult | undefined;
    const remembering: PaymentProvider = {
      async charge({ reference }) {
        result = { status: 'succeeded', providerRef: `mock:${reference}` };
        return result;
      },
      status: mockPaymentProvider.status,
    };
    const deps = { db: database.db, clock, payments: remembering };
    const first = await deposit(deps, { userId, amountCents: 2_500, accountType: 'real' });
    const [intent] = await database.db
      .selectFrom('payment_intents')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    const before = await postings();
    const again = await recordPaymentResult(deps, intent!, result!);
    expect(again).toMatchObject({
      recorded: false,
      intent: { status: 'succeeded' },
      request: { id: first.request!.id },
    });
    // Even a contradicting late answer cannot undo or redo the recorded one.
    const contradicting = await recordPaymentResult(deps, intent!, { status: 'failed', providerRef: 'late' });
    expect(contradicting.recorded).toBe(false);
    expect(await postings()).toBe(before);
    expect(await getUserBalances(database.db, userId)).toMatchObject({ real: 2_500, bonus: 1_250 });
  });
});
