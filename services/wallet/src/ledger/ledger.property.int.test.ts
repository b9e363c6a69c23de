import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import {
  USER_ACCOUNT_TYPES,
  type AccountRef,
  type SystemAccountType,
  type UserAccountType,
} from './ledger.domain';
import { InsufficientFunds } from './ledger.errors';
import { transfer } from './ledger.repository';
import { verifyLedger } from './verify';

/**
 * Random transfers between random accounts, fired concurrently from many connections at real
 * PostgreSQL. Whatever interleaving the database picks, afterwards: every invariant holds, every
 * refused transfer was refused for lack of funds, and each account's balance equals a model built
 * from the transfers that were acknowledged.
 */

const USERS = Array.from(
  { length: 6 },
  (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
);
const SYSTEMS: SystemAccountType[] = ['house_real', 'payments_clearing', 'bonus_pool'];

const accountArb: fc.Arbitrary<AccountRef> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      owner: fc.constantFrom(...USERS),
      type: fc.constantFrom<UserAccountType>(...USER_ACCOUNT_TYPES),
    }),
  },
  { weight: 1, arbitrary: fc.record({ system: fc.constantFrom(...SYSTEMS) }) },
);

/** A transfer of 2-4 postings: random debits balanced by one or more credits. */
const transferArb = fc
  .uniqueArray(accountArb, { minLength: 2, maxLength: 4, selector: (a) => JSON.stringify(a) })
  .chain((accounts) =>
    fc
      .array(fc.integer({ min: 1, max: 5_000 }), {
        minLength: accounts.length - 1,
        maxLength: accounts.length - 1,
      })
      .map((amounts) => {
        const debits = amounts.map((amount, i) => ({ account: accounts[i]!, amountCents: -amount }));
        const total = amounts.reduce((a, b) => a + b, 0);
        return [...debits, { account: accounts[accounts.length - 1]!, amountCents: total }];
      }),
  );

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 24 });
  const { openUserAccounts } = await import('./ledger.repository');
  for (const user of USERS) {
    await openUserAccounts(database.db, user);
    // Enough in each account that most transfers pass and some overdraw.
    await database.db.transaction().execute((trx) =>
      transfer(trx, {
        kind: 'seed',
        idempotencyKey: `seed-${user}`,
        postings: [
          { account: { system: 'payments_clearing' }, amountCents: -USER_ACCOUNT_TYPES.length * 8_000 },
          ...USER_ACCOUNT_TYPES.map((type) => ({ account: { owner: user, type }, amountCents: 8_000 })),
        ],
      }),
    );
  }
});
afterAll(async () => {
  await database.drop();
});

function keyOf(ref: AccountRef): string {
  return 'system' in ref ? `system:${ref.system}` : `user:${ref.owner}:${ref.type}`;
}

async function balancesByRef(): Promise<Map<string, number>> {
  const rows = await database.db
    .selectFrom('ledger_accounts')
    .select(['code', 'owner_id', 'type', 'balance'])
    .execute();
  const out = new Map<string, number>();
  for (const row of rows) {
    const key = row.owner_id ? `user:${row.owner_id}:${row.type}` : `system:${row.type}`;
    out.set(key, (out.get(key) ?? 0) + row.balance);
  }
  return out;
}

describe('ledger under random concurrent transfers', () => {
  it('keeps every invariant and matches a model of the acknowledged transfers', async () => {
    let acknowledged = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(transferArb, { minLength: 10, maxLength: 60 }),
        fc.integer({ min: 0, max: 4 }),
        async (transfers, replays) => {
          const before = await balancesByRef();
          const commands = transfers.map((postings) => ({
            kind: 'property',
            idempotencyKey: randomUUID(),
            postings,
          }));
          // Some commands are sent twice, concurrently, to exercise idempotent replays in the mix.
          const sent = [...commands, ...commands.slice(0, replays)];
          const results = await Promise.allSettled(
            sent.map((command) => database.db.transaction().execute((trx) => transfer(trx, command))),
          );
          const model = new Map(before);
          const applied = new Set<string>();
          results.forEach((result, i) => {
            const command = sent[i]!;
            if (result.status === 'rejected') {
              expect(result.reason).toBeInstanceOf(InsufficientFunds);
              refused++;
              return;
            }
            if (result.value.replayed || applied.has(command.idempotencyKey)) return;
            applied.add(command.idempotencyKey);
            acknowledged++;
            for (const posting of command.postings) {
              const key = keyOf(posting.account);
              model.set(key, (model.get(key) ?? 0) + posting.amountCents);
            }
          });
          const after = await balancesByRef();
          for (const [key, value] of model) expect(after.get(key) ?? 0, key).toBe(value);
          for (const [key, value] of after)
            if (key.startsWith('user:')) expect(value, key).toBeGreaterThanOrEqual(0);
          const report = await verifyLedger(database.db);
          expect(report.violations).toEqual([]);
        },
      ),
      { numRuns: 25 },
    );
    // The generator must exercise both outcomes, or the property proves little.
    expect(acknowledged).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(10);
  });
});
