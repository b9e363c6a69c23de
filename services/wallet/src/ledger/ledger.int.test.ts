import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPgTransaction } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { SYSTEM_ACCOUNT_SHARDS, SYSTEM_ACCOUNT_TYPES, type Posting } from './ledger.domain';
import { IdempotencyConflict, InsufficientFunds, UnknownAccount } from './ledger.errors';
import { getUserBalances, listUserTransactions, openUserAccounts, transfer } from './ledger.repository';
import { verifyLedger } from './verify';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 60 });
});
afterAll(async () => {
  await database.drop();
});

async function newUser(depositCents = 0): Promise<string> {
  const id = randomUUID();
  await openUserAccounts(database.db, id);
  if (depositCents > 0) await deposit(id, depositCents);
  return id;
}

function deposit(owner: string, cents: number, key = randomUUID()) {
  return database.db.transaction().execute((trx) =>
    transfer(trx, {
      kind: 'deposit',
      idempotencyKey: key,
      postings: [
        { account: { system: 'payments_clearing' }, amountCents: -cents },
        { account: { owner, type: 'real' }, amountCents: cents },
      ],
    }),
  );
}

function stake(owner: string, cents: number, key = randomUUID()) {
  const postings: Posting[] = [
    { account: { owner, type: 'real' }, amountCents: -cents },
    { account: { owner, type: 'real_in_play' }, amountCents: cents },
  ];
  return database.db
    .transaction()
    .execute((trx) => transfer(trx, { kind: 'trade_stake', idempotencyKey: key, postings }));
}

describe('ledger', () => {
  it('seeds every system account as shards that may go negative', async () => {
    const rows = await database.db
      .selectFrom('ledger_accounts')
      .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
      .where('owner_id', 'is', null)
      .where('may_go_negative', '=', true)
      .groupBy('type')
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.type, r.n]))).toEqual(
      Object.fromEntries(SYSTEM_ACCOUNT_TYPES.map((t) => [t, SYSTEM_ACCOUNT_SHARDS])),
    );
  });

  it('moves money with balance_after on every posting and shows it in the user history', async () => {
    const user = await newUser();
    const first = await deposit(user, 10_000);
    expect(first.replayed).toBe(false);
    expect(first.postings.find((p) => p.accountCode.endsWith(':real'))).toMatchObject({
      amountCents: 10_000,
      balanceAfter: 10_000,
    });
    const second = await stake(user, 2_550);
    expect(second.postings).toEqual([
      { accountCode: `user:${user}:real`, amountCents: -2_550, balanceAfter: 7_450 },
      { accountCode: `user:${user}:real_in_play`, amountCents: 2_550, balanceAfter: 2_550 },
    ]);
    expect(await getUserBalances(database.db, user)).toMatchObject({
      real: 7_450,
      real_in_play: 2_550,
      demo: 0,
    });
    const history = await listUserTransactions(database.db, user, { limit: 10 });
    expect(history.map((h) => [h.type, h.amountCents, h.balanceAfter])).toEqual([
      ['trade_stake', -2_550, 7_450],
      ['deposit', 10_000, 10_000],
    ]);
  });

  it('refuses an overdraft with a typed error and changes nothing', async () => {
    const user = await newUser(1_000);
    const before = await database.db
      .selectFrom('ledger_postings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const error = await stake(user, 1_001).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientFunds);
    expect((error as InsufficientFunds).accountCode).toBe(`user:${user}:real`);
    expect((error as InsufficientFunds).message).toBe('Insufficient balance');
    expect(await getUserBalances(database.db, user)).toMatchObject({ real: 1_000, real_in_play: 0 });
    const after = await database.db
      .selectFrom('ledger_postings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('rolls the ledger back with the business transaction it belongs to', async () => {
    const user = await newUser(1_000);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await transfer(trx, {
          kind: 'trade_stake',
          idempotencyKey: randomUUID(),
          postings: [
            { account: { owner: user, type: 'real' }, amountCents: -500 },
            { account: { owner: user, type: 'real_in_play' }, amountCents: 500 },
          ],
        });
        throw new Error('the trade insert failed');
      }),
    ).rejects.toThrow('the trade insert failed');
    expect(await getUserBalances(database.db, user)).toMatchObject({ real: 1_000, real_in_play: 0 });
  });

  it('returns the first entry for a repeated idempotency key and moves nothing', async () => {
    const user = await newUser();
    const key = randomUUID();
    const first = await deposit(user, 500, key);
    const again = await deposit(user, 500, key);
    expect(again).toMatchObject({ entryId: first.entryId, replayed: true });
    expect(again.postings).toEqual(first.postings);
    expect((await getUserBalances(database.db, user)).real).toBe(500);
  });

  it('replays and refuses reused keys the same way on a transaction held on a pg client', async () => {
    const user = await newUser();
    const command = {
      kind: 'deposit' as const,
      idempotencyKey: `raw:${user}`,
      postings: [
        { account: { system: 'payments_clearing' }, amountCents: -300 },
        { account: { owner: user, type: 'real' }, amountCents: 300 },
      ] satisfies Posting[],
    };
    const first = await runPgTransaction(database.pool, (trx) => transfer(trx, command));
    const again = await runPgTransaction(database.pool, (trx) => transfer(trx, command));
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ ...first, replayed: true });
    await expect(
      runPgTransaction(database.pool, (trx) =>
        transfer(trx, {
          ...command,
          postings: command.postings.map((p) => ({ ...p, amountCents: p.amountCents * 2 })),
        }),
      ),
    ).rejects.toBeInstanceOf(IdempotencyConflict);
    expect(await getUserBalances(database.db, user)).toMatchObject({ real: 300 });
  });

  it('refuses a reused idempotency key for a different transfer', async () => {
    const user = await newUser();
    const key = randomUUID();
    await deposit(user, 500, key);
    await expect(deposit(user, 501, key)).rejects.toBeInstanceOf(IdempotencyConflict);
    expect((await getUserBalances(database.db, user)).real).toBe(500);
  });

  it('names an account that was never opened', async () => {
    await expect(deposit(randomUUID(), 100)).rejects.toBeInstanceOf(UnknownAccount);
    // None of the accounts opened: no posting reaches the balance trigger, and it is still refused.
    await expect(
      database.db.transaction().execute((trx) =>
        transfer(trx, {
          kind: 'internal',
          idempotencyKey: randomUUID(),
          postings: [
            { account: { owner: randomUUID(), type: 'real' }, amountCents: -100 },
            { account: { owner: randomUUID(), type: 'real' }, amountCents: 100 },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(UnknownAccount);
  });

  it('lets exactly 10 of 50 concurrent debits through when the balance affords 10', async () => {
    const user = await newUser(1_000);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => stake(user, 100)));
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(succeeded).toHaveLength(10);
    expect(refused.every((r) => r.status === 'rejected' && r.reason instanceof InsufficientFunds)).toBe(true);
    expect(await getUserBalances(database.db, user)).toMatchObject({ real: 0, real_in_play: 1_000 });
  });

  it('moves money once when the same transfer is retried from 20 connections at once', async () => {
    const user = await newUser(10_000);
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => stake(user, 700, key)));
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await getUserBalances(database.db, user)).toMatchObject({ real: 9_300, real_in_play: 700 });
  });

  it('lets the database itself refuse a negative user balance, an unbalanced entry, an orphaned posting and edits', async () => {
    const user = await newUser(100);
    await expect(
      sql`update ledger_accounts set balance = -1 where code = ${`user:${user}:real`}`.execute(database.db),
    ).rejects.toMatchObject({ constraint: 'ledger_accounts_non_negative' });
    await expect(
      database.db.transaction().execute(async (trx) => {
        const entry = await sql<{ id: number }>`
          insert into ledger_entries (kind, idempotency_key, request_hash) values ('hand', ${randomUUID()}, 'x') returning id`.execute(
          trx,
        );
        const account = await sql<{
          id: number;
        }>`select id from ledger_accounts where code = ${`user:${user}:real`}`.execute(trx);
        await sql`insert into ledger_postings (entry_id, account_id, amount, balance_after)
                  values (${entry.rows[0]!.id}, ${account.rows[0]!.id}, 5, 105)`.execute(trx);
      }),
    ).rejects.toThrow(/does not balance/);
    await expect(sql`update ledger_postings set amount = amount + 1`.execute(database.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from ledger_entries`.execute(database.db)).rejects.toThrow(/append-only/);
    // No foreign keys: the statement trigger checks every posting's entry and account exist, and
    // neither can disappear afterwards.
    const account = await sql<{ id: number }>`
      select id from ledger_accounts where code = ${`user:${user}:real`}`.execute(database.db);
    await expect(
      sql`insert into ledger_postings (entry_id, account_id, amount, balance_after)
          values (999999999, ${account.rows[0]!.id}, 5, 105), (999999999, ${account.rows[0]!.id}, -5, 100)`.execute(
        database.db,
      ),
    ).rejects.toMatchObject({ code: '23503', message: expect.stringMatching(/entry 999999999/) });
    await expect(
      database.db.transaction().execute(async (trx) => {
        const entry = await sql<{ id: number }>`
          insert into ledger_entries (kind, idempotency_key, request_hash) values ('hand', ${randomUUID()}, 'x') returning id`.execute(
          trx,
        );
        await sql`insert into ledger_postings (entry_id, account_id, amount, balance_after)
                  values (${entry.rows[0]!.id}, 999999999, 5, 5), (${entry.rows[0]!.id}, ${account.rows[0]!.id}, -5, 95)`.execute(
          trx,
        );
      }),
    ).rejects.toMatchObject({ code: '23503', message: expect.stringMatching(/account 999999999/) });
    await expect(
      sql`delete from ledger_accounts where code = ${`user:${user}:real`}`.execute(database.db),
    ).rejects.toThrow(/never deleted/);
    for (const table of ['ledger_accounts', 'ledger_entries', 'ledger_postings']) {
      await expect(sql`truncate ${sql.table(table)} cascade`.execute(database.db)).rejects.toThrow(
        /append-only/,
      );
    }
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });
});
