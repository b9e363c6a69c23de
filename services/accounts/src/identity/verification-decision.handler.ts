import type { Kysely, Transaction } from 'kysely';
import { DomainError, type Clock, type Database } from '@updown/runtime';
import { writeAudit } from '../audit/audit.repository';
import { OwnVerification, VerificationNotPending } from './identity.domain';
import type { IdentityMetrics } from './identity.metrics';
import { decideSubmission, lockSubmission, type SubmissionRow } from './identity.repository';

/** A trader's identity as verified: what a floor above opens on it (the wallet's withdrawals). */
export interface Verified {
  readonly userId: string;
  readonly submissionId: string;
  readonly atMs: number;
}

export interface VerificationsContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  /** Where decisions are counted; none without a registry. */
  readonly metrics: IdentityMetrics | undefined;
  /**
   * Runs in the approval's transaction: accounts sit below the wallet, so the composition root
   * supplies what a verified identity opens (the gateway: the wallet's `clearWithdrawals`).
   */
  readonly onVerified: (trx: Transaction<Database>, verified: Verified) => Promise<void>;
}

/** An admin's decision; a rejection says what the trader must fix. */
export type VerificationDecision =
  { readonly action: 'approve' } | { readonly action: 'reject'; readonly reason: string };

export class VerificationNotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'Verification not found');
  }
}

/**
 * Decides a pending identity submission, exactly once: the submission is locked, so of two admins
 * deciding at once one wins and the other is refused, and nobody decides their own. Approval runs
 * `onVerified` (the wallet's clearance, which opens the trader's withdrawals) in the same
 * transaction, and the decision is audited with it. Answers the submission as decided.
 */
export async function decideVerification(
  ctx: VerificationsContext,
  adminId: string,
  submissionId: string,
  decision: VerificationDecision,
): Promise<SubmissionRow> {
  const { action } = decision;
  const decided = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockSubmission(trx, submissionId);
    if (!row) throw new VerificationNotFound();
    if (row.user_id === adminId) throw new OwnVerification();
    if (row.status !== 'pending') throw new VerificationNotPending(row.status);
    const now = ctx.clock.nowMs();
    const after = await decideSubmission(trx, {
      id: row.id,
      status: action === 'approve' ? 'verified' : 'rejected',
      adminId,
      reason: decision.action === 'reject' ? decision.reason : null,
      at: now,
    });
    if (action === 'approve')
      await ctx.onVerified(trx, { userId: row.user_id, submissionId: row.id, atMs: now });
    await writeAudit(trx, {
      actorId: adminId,
      action: `identity.${action}`,
      target: row.id,
      before: { status: 'pending', user_id: row.user_id },
      after: { status: after.status, user_id: row.user_id, reason: after.rejection_reason },
      at: now,
    });
    return after;
  });
  ctx.metrics?.decisions.inc({ decision: action });
  return decided;
}
