import type { Transaction } from 'kysely';
import { writeAudit } from '@updown/accounts';
import type { Database } from '@updown/runtime';
import type { DecidedRequest } from './payment-intents';

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
