import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { clearWithdrawals } from '@updown/wallet';

/**
 * Set-up for tests that are not about identity verification: the user's withdrawals are cleared
 * as an approved verification would clear them (`identity.int.test.ts` tests the real flow).
 */
export async function clearForWithdrawals(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .transaction()
    .execute((trx) => clearWithdrawals(trx, { userId, sourceId: randomUUID(), at: Date.now() }));
}
