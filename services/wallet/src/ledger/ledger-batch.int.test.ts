import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import type { TransferCommand } from './ledger.domain';
import { IdempotencyConflict, InsufficientFunds, InvalidTransfer, UnknownAccount } from './ledger.errors';
import { getUserBalances, openUserAccounts, transfer, transferBatch } from './ledger.repository';
import { verifyLedger } from './verify';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 10 });
});
afterAll(async () => {
  await database.drop();
});

const inTransaction = <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
  database.db.transaction().execute(work);

async function newUsers(count: number, depositCents: number): Promise<string[]> {
  const users = Array.from({ length: count }, () => randomUUID());
  for (const user of users) await openUserAccounts(database.db, user);
  if (depositCents === 0) return users;
  await inTransaction((trx) =>
    transferBatch(
      trx,
      users.map((owner) => ({
        kind: 'deposit',
        idempotencyKey: `deposit:${owner}`,
        postings: [
          { account: { system: 'payments_clearing' }, amountCents: -depositCents },
          { account: { owner, type: 'real' }, amountCents: depositCents },
        ],
      })),
    ),
  );
  return users;
}

async function postingCount(): Promise<number> {
  const row = await database.db
    .selectFrom('ledger_postings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** A deterministic mix of stakes, releases, wins paid by the house and bonus moves over a few users. */
function mixedBatch(users: readonly string[], count: number, prefix: string): TransferCommand[] {
  return Array.from({ length: count }, (_, i) => {
    const owner = users[i % users.length]!;
    const key = `${prefix}:${i}`;
    switch (i % 4) {
      case 0:
        return {
          kind: 'trade_stake',
          idempotencyKey: key,
          postings: [
            { account: { owner, type: 'real' }, amountCents: -(100 + (i % 7)) },
            { account: { owner, type: 'real_in_play' }, amountCents: 100 + (i % 7) },
          ],
        };
      case 1:
        return {
          kind: 'trade_payout',
          idempotencyKey: key,
          postings: [
            { account: { system: 'house_real' }, amountCents: -(50 + (i % 11)) },
            { account: { owner, type: 'real' }, amountCents: 50 + (i % 11) },
          ],
        };
      case 2:
        return {
          kind: 'trade_loss',
          idempotencyKey: key,
          postings: [
            { account: { owner, type: 'real' }, amountCents: -30 },
            { account: { system: 'house_real' }, amountCents: 30 },
          ],
        };
      default:
        return {
          kind: 'bonus_credit',
          idempotencyKey: key,
          postings: [
            { account: { system: 'bonus_pool' }, amountCents: -(20 + (i % 3)) },
            { account: { owner, type: 'bonus' }, amountCents: 20 + (i % 3) },
          ],
        };
    }
  });
}

/** What each account's balance should move by, computed from the commands alone. */
function expectedDeltas(users: readonly string[], commands: readonly TransferCommand[]) {
  const deltas = new Map(users.map((u) => [u, { real: 0, real_in_play: 0, bonus: 0 }]));
  for (const command of commands) {
    for (const posting of command.postings) {
      if (!('owner' in posting.account)) continue;
      const row = deltas.get(posting.account.owner)!;
      row[posting.account.type as keyof typeof row] += posting.amountCents;
    }
  }
  return deltas;
}

describe('transferBatch', () => {
  it('writes 1,000 mixed entries in one statement with correct balances and chains', async () => {
    const users = await newUsers(25, 1_000_000);
    const commands = mixedBatch(users, 1_000, `mix:${randomUUID()}`);
    const before = await postingCount();
    let statements = 0;
    const result = await inTransaction(async (trx) => {
      // Count the statements this call sends on the transaction's connection.
      const counted = trx.withPlugin({
        transformQuery: (args) => {
          statements++;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      return transferBatch(counted as Transaction<Database>, commands);
    });
    expect(statements).toBe(1);
    expect(result.entryIds.size).toBe(1_000);
    expect(result.replayedKeys).toEqual([]);
    expect(result.postings).toBe(2_000);
    expect((await postingCount()) - before).toBe(2_000);

    const deltas = expectedDeltas(users, commands);
    for (const user of users) {
      const expected = deltas.get(user)!;
      expect(await getUserBalances(database.db, user)).toMatchObject({
        real: 1_000_000 + expected.real,
        real_in_play: expected.real_in_play,
        bonus: expected.bonus,
      });
    }
    const report = await verifyLedger(database.db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('spreads the house side over its shards, one shard per entry chosen by the key', async () => {
    const users = await newUsers(2, 10_000);
    const prefix = `shards:${randomUUID()}`;
    const commands = mixedBatch(users, 200, prefix).filter((c) => c.kind === 'trade_loss');
    await inTransaction((trx) => transferBatch(trx, commands));
    const { rows } = await sql<{ shards: number }>`
      select count(distinct a.code)::int as shards
      from ledger_entries e
      join ledger_postings p on p.entry_id = e.id
      join ledger_accounts a on a.id = p.account_id
      where e.idempotency_key like ${`${prefix}:%`} and a.type = 'house_real'`.execute(database.db);
    expect(rows[0]!.shards).toBeGreaterThan(8);
  });

  it('moves nothing when the same batch is replayed, and returns the first entries', async () => {
    const users = await newUsers(5, 100_000);
    const commands = mixedBatch(users, 100, `replay:${randomUUID()}`);
    const first = await inTransaction((trx) => transferBatch(trx, commands));
    const balances = await Promise.all(users.map((u) => getUserBalances(database.db, u)));
    const before = await postingCount();

    const again = await inTransaction((trx) => transferBatch(trx, commands));
    expect(again.replayedKeys).toHaveLength(100);
    expect(again.postings).toBe(0);
    expect([...again.entryIds]).toEqual([...first.entryIds]);
    expect(await postingCount()).toBe(before);
    expect(await Promise.all(users.map((u) => getUserBalances(database.db, u)))).toEqual(balances);

    // Half old, half new: only the new half moves money.
    const extended = [...commands.slice(50), ...mixedBatch(users, 10, `replay-more:${randomUUID()}`)];
    const mixed = await inTransaction((trx) => transferBatch(trx, extended));
    expect(mixed.replayedKeys).toHaveLength(50);
    expect(mixed.postings).toBe(20);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('refuses a replayed key that now moves something else', async () => {
    const users = await newUsers(1, 10_000);
    const [command] = mixedBatch(users, 1, `conflict:${randomUUID()}`);
    await inTransaction((trx) => transferBatch(trx, [command!]));
    const changed: TransferCommand = {
      ...command!,
      postings: command!.postings.map((p) => ({ ...p, amountCents: p.amountCents * 2 })),
    };
    await expect(inTransaction((trx) => transferBatch(trx, [changed]))).rejects.toBeInstanceOf(
      IdempotencyConflict,
    );
  });

  it('fails the whole batch with InsufficientFunds when any one entry would overdraw', async () => {
    const users = await newUsers(10, 100_000);
    const before = await postingCount();
    const balances = await Promise.all(users.map((u) => getUserBalances(database.db, u)));
    const commands = mixedBatch(users, 300, `overdraft:${randomUUID()}`);
    commands.splice(150, 0, {
      kind: 'trade_stake',
      idempotencyKey: `overdraft-one:${randomUUID()}`,
      postings: [
        { account: { owner: users[3]!, type: 'real' }, amountCents: -500_000 },
        { account: { owner: users[3]!, type: 'real_in_play' }, amountCents: 500_000 },
      ],
    });
    const error = await inTransaction((trx) => transferBatch(trx, commands)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientFunds);
    expect((error as InsufficientFunds).accountCode).toBe(`user:${users[3]}:real`);
    expect(await postingCount()).toBe(before);
    expect(await Promise.all(users.map((u) => getUserBalances(database.db, u)))).toEqual(balances);
    // The keys of the failed batch were rolled back too: the batch can be retried once funded.
    const stuck = await database.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('idempotency_key', 'like', 'overdraft%')
      .execute();
    expect(stuck).toEqual([]);
  });

  it('never shows a negative balance_after inside a batch whose end balances are fine', async () => {
    const [user] = await newUsers(1, 0);
    // Spend first, earn later, in command order: credits are applied first, so 0 → 500 → 0.
    await inTransaction((trx) =>
      transferBatch(trx, [
        {
          kind: 'trade_stake',
          idempotencyKey: `order-spend:${user}`,
          postings: [
            { account: { owner: user!, type: 'real' }, amountCents: -500 },
            { account: { owner: user!, type: 'real_in_play' }, amountCents: 500 },
          ],
        },
        {
          kind: 'deposit',
          idempotencyKey: `order-earn:${user}`,
          postings: [
            { account: { system: 'payments_clearing' }, amountCents: -500 },
            { account: { owner: user!, type: 'real' }, amountCents: 500 },
          ],
        },
      ]),
    );
    const { rows } = await sql<{ balance_after: number }>`
      select p.balance_after from ledger_postings p join ledger_accounts a on a.id = p.account_id
      where a.code = ${`user:${user}:real`} order by p.id`.execute(database.db);
    expect(rows.map((r) => r.balance_after)).toEqual([500, 0]);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('keeps balance_after chains right when single transfers and batches interleave', async () => {
    const users = await newUsers(3, 50_000);
    for (let round = 0; round < 5; round++) {
      await inTransaction((trx) =>
        transferBatch(trx, mixedBatch(users, 40, `interleave:${round}:${randomUUID()}`)),
      );
      await inTransaction((trx) =>
        transfer(trx, {
          kind: 'trade_stake',
          idempotencyKey: randomUUID(),
          postings: [
            { account: { owner: users[0]!, type: 'real' }, amountCents: -10 },
            { account: { owner: users[0]!, type: 'real_in_play' }, amountCents: 10 },
          ],
        }),
      );
    }
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('refuses malformed input before writing: a key twice, an unbalanced entry, an unopened account', async () => {
    const users = await newUsers(1, 1_000);
    const [command] = mixedBatch(users, 1, `dup:${randomUUID()}`);
    await expect(inTransaction((trx) => transferBatch(trx, [command!, command!]))).rejects.toBeInstanceOf(
      InvalidTransfer,
    );
    await expect(
      inTransaction((trx) =>
        transferBatch(trx, [
          {
            kind: 'deposit',
            idempotencyKey: randomUUID(),
            postings: [
              { account: { system: 'payments_clearing' }, amountCents: -1 },
              { account: { owner: users[0]!, type: 'real' }, amountCents: 2 },
            ],
          },
        ]),
      ),
    ).rejects.toBeInstanceOf(InvalidTransfer);
    await expect(
      inTransaction((trx) =>
        transferBatch(trx, [
          {
            kind: 'deposit',
            idempotencyKey: randomUUID(),
            postings: [
              { account: { system: 'payments_clearing' }, amountCents: -1 },
              { account: { owner: randomUUID(), type: 'real' }, amountCents: 1 },
            ],
          },
        ]),
      ),
    ).rejects.toBeInstanceOf(UnknownAccount);
    // An entry none of whose accounts was opened, beside a good one: no posting of it reaches the
    // balance trigger, and the batch is still refused whole.
    const before = await postingCount();
    await expect(
      inTransaction((trx) =>
        transferBatch(trx, [
          mixedBatch(users, 1, `good:${randomUUID()}`)[0]!,
          {
            kind: 'internal',
            idempotencyKey: randomUUID(),
            postings: [
              { account: { owner: randomUUID(), type: 'real' }, amountCents: -1 },
              { account: { owner: randomUUID(), type: 'real' }, amountCents: 1 },
            ],
          },
        ]),
      ),
    ).rejects.toBeInstanceOf(UnknownAccount);
    expect(await postingCount()).toBe(before);
    expect(await inTransaction((trx) => transferBatch(trx, []))).toMatchObject({ postings: 0 });
  });
});
