import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { DecidedRequest } from '@updown/wallet';

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

/**
 * The audit record of a deposit or withdrawal decision: the wallet calls this inside the decision's
 * transaction (its `onDecided` hook), so the record commits with the ledger entry. Recovery of an
 * interrupted approval at start-up records through it too.
 */
export async function auditDecision(trx: Transaction<Database>, decided: DecidedRequest): Promise<void> {
  const { request } = decided;
  await writeAudit(trx, {
    actorId: decided.adminId,
    action: `${decided.kind}.${decided.decision}`,
    target: request.id,
    before: { status: 'pending' },
    after: { status: request.status, user_id: request.user_id, amount_cents: request.amount_cents },
    at: decided.at,
  });
}
