import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Clock, Database, KeySet } from '@updown/runtime';
import {
  ADMIN_DISPUTES_LIMIT_DEFAULT,
  AdminDispute,
  AdminDisputePage,
  AdminDisputesQuery,
  centsToDollars,
  Dispute,
  DisputeBody,
  DisputeIdParams,
  DisputeList,
  ResolveDisputeBody,
  TradeIdParams,
} from '@updown/schemas/api';
import {
  decodeDisputeCursor,
  disputeRange,
  DISPUTE_FILING_WINDOW_MS,
  DISPUTE_LIMITS_DEFAULT,
  DISPUTES_LIST_MAX,
  listDisputePage,
  listUserDisputes,
  openDispute,
  pageOf,
  resolveDispute,
  type DisputeFilter,
  type DisputeLimits,
  type DisputeRow,
} from '@updown/settlement';
import { emailsByIds, findUserByEmail, normaliseEmail, writeAudit } from '@updown/accounts';
import { errorResponses } from '../http/responses';

export interface DisputesPluginDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly keySet: KeySet;
  /** The per-trader filing caps; settlement's `DISPUTE_LIMITS_DEFAULT` when not given. */
  readonly limits?: DisputeLimits;
}

/** A dispute as the API shows it: money in dollars, times as ISO strings. */
export function disputeView(row: DisputeRow) {
  const replay = row.replay;
  return {
    id: row.id,
    trade_id: row.trade_id,
    pair: row.pair,
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The admin list's query as settlement's filter. A trader named by email is looked up here (the
 * gateway owns users); an email no account has matches no dispute, so the answer is `null`, an
 * empty page, rather than an error that would tell which addresses have accounts.
 */
async function disputeFilter(db: Kysely<Database>, query: AdminDisputesQuery): Promise<DisputeFilter | null> {
  const range = disputeRange(query.from, query.to);
  let userId: string | undefined;
  if (query.trader !== undefined) {
    if (UUID.test(query.trader)) userId = query.trader.toLowerCase();
    else {
      const user = await findUserByEmail(db, normaliseEmail(query.trader));
      if (!user) return null;
      userId = user.id;
    }
  }
  return { status: query.status, userId, pair: query.pair?.toUpperCase(), ...range };
}

/**
 * Disputes (the terms: within 24 hours of settlement). A trader disputes a settled trade and gets
 * the replay's verdict at once; admins list disputes and resolve them, a correction moving money
 * through the ledger with the audit record in the same transaction.
 */
export function createDisputesPlugin(deps: DisputesPluginDeps): FastifyPluginAsyncTypebox {
  const { db, clock } = deps;
  const limits = deps.limits ?? DISPUTE_LIMITS_DEFAULT;
  return async (app) => {
    app.post(
      '/api/trades/:id/disputes',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['trades', 'disputes'],
          summary: 'Dispute a settled trade',
          description: `The owner, within 24 hours of settlement, one open dispute per trade. The settlement is replayed at once from the chain-verified ticks; the answer carries the verdict ("confirmed" or "mismatch") and its evidence. A trader may have at most ${limits.openPerTraderMax} open disputes (429 \`OPEN_DISPUTES_CAP_REACHED\`) and file at most ${limits.filedPerTraderPerDayMax} in any ${DISPUTE_FILING_WINDOW_MS / 3_600_000} hours (429 \`DAILY_DISPUTES_CAP_REACHED\`, with \`Retry-After\` until a slot frees).`,
          security: [{ bearerAuth: [] }],
          params: TradeIdParams,
          body: DisputeBody,
          response: { 201: Dispute, ...errorResponses(400, 401, 404, 409, 429) },
        },
      },
      async (request, reply) => {
        const row = await openDispute(
          { db, clock, keySet: deps.keySet, limits },
          { userId: request.user.id, tradeId: request.params.id, reason: request.body.reason },
        );
        return reply.code(201).send(disputeView(row));
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
        return rows.map(disputeView);
      },
    );

    app.get(
      '/api/admin/disputes',
      {
        schema: {
          tags: ['admin', 'disputes'],
          summary: 'Disputes, newest first, a page at a time, by status, trader, pair and filing time',
          description:
            'Keyset paging: pass the answer’s `next_cursor` back as `cursor` (with the same filters) until it is null. Disputes filed meanwhile appear at the top of the first page, never inside a later one, so paging to the end reaches every dispute that matched when it began. A malformed cursor or filter, or `from` not earlier than `to`, is a 400.',
          security: [{ bearerAuth: [] }],
          querystring: AdminDisputesQuery,
          response: { 200: AdminDisputePage, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { cursor, limit = ADMIN_DISPUTES_LIMIT_DEFAULT } = request.query;
        const after = cursor === undefined ? undefined : decodeDisputeCursor(cursor);
        const filter = await disputeFilter(db, request.query);
        if (filter === null) return { disputes: [], next_cursor: null };
        const page = pageOf(await listDisputePage(db, filter, after, limit), limit);
        return { disputes: await adminViews(page.rows), next_cursor: page.nextCursor };
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
                at: clock.nowMs(),
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
    const emails = await emailsByIds(
      db,
      rows.flatMap((r) => (r.resolved_by ? [r.user_id, r.resolved_by] : [r.user_id])),
    );
    return rows.map((row) => ({
      ...disputeView(row),
      user_id: row.user_id,
      user_email: emails.get(row.user_id) ?? null,
      resolved_by: row.resolved_by === null ? null : (emails.get(row.resolved_by) ?? row.resolved_by),
    }));
  }
}
