import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

/**
 * Appends one admin change to `admin_audit`. Takes a `Transaction` on purpose: the record must
 * commit with the change it describes, or not at all.
 */
export async function writeAudit(
  trx: Transaction<Database>,
  entry: { actorId: string; action: string; target: string; before: unknown; after: unknown; at: number },
): Promise<void> {
  await trx
    .insertInto('admin_audit')
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      target: entry.target,
      before: entry.before === undefined || entry.before === null ? null : JSON.stringify(entry.before),
      after: entry.after === undefined || entry.after === null ? null : JSON.stringify(entry.after),
      at: new Date(entry.at),
    })
    .execute();
}
