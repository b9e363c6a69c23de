import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/** Arbitrary but fixed: the advisory lock that makes one relay per database the active one. */
export const OUTBOX_RELAY_LOCK_ID = 0x75_70_64_6f_77_6e; // "updown"

/**
 * Takes the relay lock for the rest of the transaction. Transaction-level, so it is released by
 * commit or rollback and cannot leak on a pooled connection; `try`, so a second relay skips its
 * turn instead of queueing behind the first.
 */
export async function tryTakeRelayLock(trx: Transaction<Database>): Promise<boolean> {
  const result = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(${OUTBOX_RELAY_LOCK_ID}::bigint) as locked`.execute(trx);
  return result.rows[0]?.locked === true;
}
