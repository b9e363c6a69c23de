import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { transferBatch, USER_ACCOUNT_TYPES, userAccountCode } from '@updown/wallet';
import { seedTransfer } from './ledger-workload';

/** Seed transfers per set-up transaction (the ledger takes up to 10,000). */
const SEED_CHUNK = 5_000;

/**
 * Opens `count` users' accounts and funds each one's `demo_in_play` through the ledger, before
 * anything is measured. The accounts go in with one statement rather than `openUserAccounts` per
 * user: the same rows, in a fraction of the set-up time.
 */
export async function openBenchUsers(db: Kysely<Database>, count: number): Promise<string[]> {
  const owners = Array.from({ length: count }, () => randomUUID());
  const codes: string[] = [];
  const ownerIds: string[] = [];
  const types: string[] = [];
  for (const owner of owners) {
    for (const type of USER_ACCOUNT_TYPES) {
      codes.push(userAccountCode(owner, type));
      ownerIds.push(owner);
      types.push(type);
    }
  }
  await sql`
    insert into ledger_accounts (code, owner_id, type)
    select * from unnest(${codes}::text[], ${ownerIds}::uuid[], ${types}::text[])`.execute(db);
  for (let i = 0; i < owners.length; i += SEED_CHUNK) {
    const chunk = owners.slice(i, i + SEED_CHUNK).map((owner) => seedTransfer(owner, 'seed'));
    await db.transaction().execute((trx) => transferBatch(trx, chunk));
  }
  await sql`analyze ledger_accounts`.execute(db);
  return owners;
}
