import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { DomainError, type Clock, type Database, type Registry } from '@updown/runtime';
import {
  IdentityDocumentParams,
  VerificationDecisionRequest,
  VerificationDetail,
  VerificationList,
  VerificationsQuery,
  VerificationSummary,
  type DuplicateSignal,
} from '@updown/schemas/api';
import {
  decideVerification,
  documentsByIds,
  duplicateMatches,
  identityMetrics,
  listSubmissions,
  submissionOwner,
  type SubmissionRow,
  submissionsOf,
  usersByIds,
  VerificationNotFound,
  type VerificationsContext,
} from '@updown/accounts';
import { clearWithdrawals } from '@updown/wallet';
import { errorResponses } from '../http/responses';
import { documentView } from '../identity/identity.view';

/** Summaries of `rows` with the account's name and email, the decider's email and the duplicate signals. */
async function summaries(
  db: Kysely<Database>,
  rows: readonly SubmissionRow[],
): Promise<VerificationSummary[]> {
  const owners = rows.map((r) => r.user_id);
  const matches = await duplicateMatches(db, owners);
  const users = await usersByIds(db, [
    ...owners,
    ...rows.flatMap((r) => (r.decided_by ? [r.decided_by] : [])),
    ...matches.map((m) => m.otherUserId),
  ]);
  const signals = new Map<string, DuplicateSignal[]>();
  for (const match of matches) {
    const list = signals.get(match.userId) ?? [];
    list.push({
      user_id: match.otherUserId,
      email: users.get(match.otherUserId)?.email ?? '',
      reason: match.reason,
    });
    signals.set(match.userId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    user_id: row.user_id,
    email: users.get(row.user_id)?.email ?? '',
    account_name: users.get(row.user_id)?.name ?? '',
    full_name: row.full_name,
    date_of_birth: row.date_of_birth,
    status: row.status,
    submitted_at: row.submitted_at.toISOString(),
    decided_at: row.decided_at ? row.decided_at.toISOString() : null,
    decided_by_email: row.decided_by ? (users.get(row.decided_by)?.email ?? null) : null,
    rejection_reason: row.rejection_reason,
    duplicate_signals: signals.get(row.user_id) ?? [],
  }));
}

/**
 * The admin's Verification tab (README "Identity verification"): the queue, one submission with
 * its documents and the trader's history, and the decision. A decision locks the submission, so of
 * two admins deciding at once one wins and the other gets 409; nobody decides their own. Approval
 * opens the trader's withdrawals (the wallet's clearance) in the same transaction, and every
 * decision is audited with it (accounts' verification-decision.handler.ts). No guard here: the auth plugin adds
 * `requireAdmin` to every `/api/admin/*` route.
 */
export function adminVerificationRoutes(deps: {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly registry?: Registry;
}): FastifyPluginAsyncTypebox {
  const { db, clock } = deps;
  const ctx: VerificationsContext = {
    db,
    clock,
    metrics: deps.registry ? identityMetrics(deps.registry) : undefined,
    // A verified identity opens the trader's withdrawals: the wallet's clearance, in the decision's transaction.
    onVerified: (trx, verified) =>
      clearWithdrawals(trx, { userId: verified.userId, sourceId: verified.submissionId, at: verified.atMs }),
  };
  const tags = ['admin'];
  return async (app) => {
    app.get(
      '/api/admin/verifications',
      {
        schema: {
          tags,
          summary:
            'Identity submissions: the pending queue oldest first (default), or decided ones newest first, with duplicate-account signals',
          querystring: VerificationsQuery,
          response: { 200: VerificationList, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => summaries(db, await listSubmissions(db, request.query.status ?? 'pending')),
    );

    app.get(
      '/api/admin/verifications/:id',
      {
        schema: {
          tags,
          summary: "One submission with its documents and the trader's every submission and decision",
          params: IdentityDocumentParams,
          response: { 200: VerificationDetail, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const userId = await submissionOwner(db, request.params.id);
        if (!userId) throw new VerificationNotFound();
        const history = await submissionsOf(db, userId);
        // The trader's every submission, summarised once: this one is among them.
        const historyViews = await summaries(db, history);
        const row = history.find((s) => s.id === request.params.id)!;
        const summary = historyViews.find((h) => h.id === row.id)!;
        const documents = await documentsByIds(db, [row.photo_id_document, row.proof_of_address_document]);
        return {
          ...summary,
          documents: documents.map(documentView),
          history: historyViews.map((h) => ({
            id: h.id,
            status: h.status,
            submitted_at: h.submitted_at,
            decided_at: h.decided_at,
            decided_by_email: h.decided_by_email,
            rejection_reason: h.rejection_reason,
          })),
        };
      },
    );

    app.post(
      '/api/admin/verifications/:id',
      {
        schema: {
          tags,
          summary:
            "Approve (the trader's real withdrawals open at once) or reject with a reason the trader sees; exactly once, never one's own",
          params: IdentityDocumentParams,
          body: VerificationDecisionRequest,
          response: { 200: VerificationSummary, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const { action } = request.body;
        const reason = request.body.reason?.trim() ?? '';
        if (action === 'reject' && reason.length === 0) {
          throw new DomainError('VALIDATION', 'Give the reason for the rejection: the trader sees it');
        }
        const decided = await decideVerification(
          ctx,
          request.user.id,
          request.params.id,
          action === 'approve' ? { action } : { action, reason },
        );
        const [summary] = await summaries(db, [decided]);
        return summary!;
      },
    );
  };
}
