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
} from '@updown/schemas/api';
import {
  decideVerification,
  documentsByIds,
  documentView,
  identityMetrics,
  listSubmissions,
  submissionOwner,
  submissionsOf,
  verificationSummaries,
  VerificationNotFound,
  type VerificationsContext,
} from '@updown/accounts';
import { clearWithdrawals } from '@updown/wallet';
import { errorResponses } from '../http/responses';

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
      async (request) =>
        verificationSummaries(db, await listSubmissions(db, request.query.status ?? 'pending')),
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
        const historyViews = await verificationSummaries(db, history);
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
        const [summary] = await verificationSummaries(db, [decided]);
        return summary!;
      },
    );
  };
}
