import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { tradePairs } from '@updown/order';
import type { Clock, Database, KeySet } from '@updown/runtime';
import {
  AdminDispute,
  AdminDisputeList,
  AdminDisputesQuery,
  Dispute,
  DisputeBody,
  DisputeIdParams,
  DisputeList,
  ResolveDisputeBody,
  TradeIdParams,
} from '@updown/schemas/api';
import {
  DISPUTES_LIST_MAX,
  listDisputes,
  listUserDisputes,
  openDispute,
  resolveDispute,
  type DisputeRow,
} from '@updown/settlement';
import { writeAudit } from '../admin/audit.repository';
import { emailsByIds } from '../auth/users.repository';
import { centsToDollars } from '../http/money';
import { errorResponses } from '../http/responses';

export interface DisputesPluginDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly keySet: KeySet;
}

/** A dispute as the API shows it: money in dollars, times as ISO strings. */
export function disputeView(row: DisputeRow, pair: string) {
  const replay = row.replay;
  return {
    id: row.id,
    trade_id: row.trade_id,
    pair,
    reason: row.reason,
    status: row.status,
    replay: {
      verdict: replay.verdict,
      summary: replay.summary,
      steps: replay.steps.map((s) => ({ ...s })),
      recorded: { outcome: replay.recorded.outcome, pnl: centsToDollars(replay.recorded.pnlCents) },
      replayed: {
        outcome: replay.replayed.outcome,
        pnl: replay.replayed.pnlCents === null ? null : centsToDollars(replay.replayed.pnlCents),
      },
    },
    correction: row.correction_cents === null ? null : centsToDollars(row.correction_cents),
    resolution_note: row.resolution_note,
    created_at: new Date(row.created_at_ms).toISOString(),
    resolved_at: row.resolved_at_ms === null ? null : new Date(row.resolved_at_ms).toISOString(),
  };
}

/** The pair of each dispute's trade (order's query). */
function pairsOf(db: Kysely<Database>, rows: readonly DisputeRow[]): Promise<Map<string, string>> {
  return tradePairs(
    db,
    rows.map((r) => r.trade_id),
  );
}

/**
 * Disputes (the terms: within 24 hours of settlement). A trader disputes a settled trade and gets
 * the replay's verdict at once; admins list disputes and resolve them, a correction moving money
 * through the ledger with the audit record in the same transaction.
 */
export function createDisputesPlugin(deps: DisputesPluginDeps): FastifyPluginAsyncTypebox {
  const { db, clock } = deps;
  return async (app) => {
    app.post(
      '/api/trades/:id/disputes',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['trades', 'disputes'],
          summary: 'Dispute a settled trade',
          description:
            'The owner, within 24 hours of settlement, one open dispute per trade. The settlement is replayed at once from the chain-verified ticks; the answer carries the verdict ("confirmed" or "mismatch") and its evidence.',
          security: [{ bearerAuth: [] }],
          params: TradeIdParams,
          body: DisputeBody,
          response: { 201: Dispute, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (request, reply) => {
        const row = await openDispute(
          { db, clock, keySet: deps.keySet },
          { userId: request.user.id, tradeId: request.params.id, reason: request.body.reason },
        );
        const pairs = await pairsOf(db, [row]);
        return reply.code(201).send(disputeView(row, pairs.get(row.trade_id) ?? ''));
      },
    );

    app.get(
      '/api/disputes',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['disputes'],
          summary: 'The caller’s disputes, newest first',
          security: [{ bearerAuth: [] }],
          response: { 200: DisputeList, ...errorResponses(401) },
        },
      },
      async (request) => {
        const rows = await listUserDisputes(db, request.user.id, DISPUTES_LIST_MAX);
        const pairs = await pairsOf(db, rows);
        return rows.map((row) => disputeView(row, pairs.get(row.trade_id) ?? ''));
      },
    );

    app.get(
      '/api/admin/disputes',
      {
        schema: {
          tags: ['admin', 'disputes'],
          summary: 'Disputes, newest first, optionally by status',
          security: [{ bearerAuth: [] }],
          querystring: AdminDisputesQuery,
          response: { 200: AdminDisputeList, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const rows = await listDisputes(db, request.query.status, DISPUTES_LIST_MAX);
        return adminViews(rows);
      },
    );

    app.post(
      '/api/admin/disputes/:id/resolve',
      {
        schema: {
          tags: ['admin', 'disputes'],
          summary: 'Resolve a dispute: confirm the settlement, or correct it through the ledger',
          description:
            '"correct" only when the replay found a different result: the difference is paid (or reclaimed) as the dispute’s own idempotent ledger entry. An admin cannot resolve a dispute of their own trade.',
          security: [{ bearerAuth: [] }],
          params: DisputeIdParams,
          body: ResolveDisputeBody,
          response: { 200: AdminDispute, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const row = await resolveDispute(
          {
            db,
            clock,
            keySet: deps.keySet,
            onResolved: (trx, before, after) =>
              writeAudit(trx, {
                actorId: request.user.id,
                action: `dispute.${after.status === 'corrected' ? 'correct' : 'confirm'}`,
                target: after.id,
                before: { status: before.status },
                after: {
                  status: after.status,
                  trade_id: after.trade_id,
                  user_id: after.user_id,
                  correction_cents: after.correction_cents,
                  ledger_entry_id: after.ledger_entry_id,
                  note: after.resolution_note,
                },
                at: clock.now(),
              }),
          },
          {
            disputeId: request.params.id,
            adminId: request.user.id,
            decision: request.body.decision,
            note: request.body.note,
          },
        );
        const [view] = await adminViews([row]);
        return view!;
      },
    );
  };

  async function adminViews(rows: readonly DisputeRow[]) {
    const [pairs, emails] = await Promise.all([
      pairsOf(db, rows),
      emailsByIds(
        db,
        rows.flatMap((r) => (r.resolved_by ? [r.user_id, r.resolved_by] : [r.user_id])),
      ),
    ]);
    return rows.map((row) => ({
      ...disputeView(row, pairs.get(row.trade_id) ?? ''),
      user_id: row.user_id,
      user_email: emails.get(row.user_id) ?? null,
      resolved_by: row.resolved_by === null ? null : (emails.get(row.resolved_by) ?? row.resolved_by),
    }));
  }
}
