import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { forgetPairRisk, hasPendingTrades, withRiskQuotes } from '@updown/order';
import {
  deletePair,
  FEED_PROVIDERS,
  insertPair,
  listPairFeeds,
  listPairs,
  lockPair,
  PAIRS_KNOWN_MAX,
  readPair,
  setEveryPairPayout,
  setPairActive,
  setPairFeed,
} from '@updown/price-ingest';
import { DomainError, type Clock, type Database, type Registry } from '@updown/runtime';
import {
  AddPairBody,
  AdminFeedList,
  ADMIN_REQUESTS_LIMIT_DEFAULT,
  AdminRequestsQuery,
  MarketPair,
  MarketPairList,
  PairSymbolParams,
  PaymentRequest,
  PaymentRequestList,
  PlatformSettings,
  RequestDecisionBody,
  RequestIdParams,
  StatusOkResponse,
  UpdatePairBody,
  UpdatePairFeedBody,
  UpdateSettingsBody,
} from '@updown/schemas/api';
import {
  decideRequest,
  listRequests,
  lockPlatformSettings,
  mockPaymentProvider,
  readSettings,
  updatePlatformSettings,
  type PaymentProvider,
  type PaymentRequestKind,
  type WalletDeps,
} from '@updown/wallet';
import { errorResponses } from '../http/responses';
import { paymentRequestView } from '../shared/payment-request.view';
import { checkPayoutPct, normaliseFeed, normaliseNewPair } from './admin.domain';
import { identityStatuses } from '../identity/identity.repository';
import { auditDecision, writeAudit } from './audit.repository';
import { adminVerificationRoutes } from './verifications.routes';
import { adminRiskRoutes } from './risk.routes';
import { adminUsersRoutes } from './users.routes';

export interface AdminPluginDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  /** Charges approved deposits; defaults to the mock provider. */
  readonly payments?: PaymentProvider;
  /** Counts identity decisions (`identity.metrics.ts`); none without. */
  readonly registry?: Registry;
}

class PairNotFound extends DomainError {
  constructor(symbol: string) {
    super('NOT_FOUND', `Unknown pair: ${symbol}`);
  }
}

const tags = ['admin'];

/**
 * `/api/admin/*` (spec §7 Admin). No guard is written here: the auth plugin puts
 * `requireAdmin` on every `/api/admin/*` route, and `buildApp` refuses to start without it.
 * Every change writes an `admin_audit` row in its own transaction.
 */
export function createAdminPlugin(pluginDeps: AdminPluginDeps): FastifyPluginAsyncTypebox {
  const deps: WalletDeps = {
    db: pluginDeps.db,
    clock: pluginDeps.clock,
    payments: pluginDeps.payments ?? mockPaymentProvider,
  };
  const { db, clock } = deps;

  return async (app) => {
    await app.register(adminUsersRoutes({ db }));
    await app.register(adminRiskRoutes({ db, clock }));
    await app.register(adminVerificationRoutes({ db, clock, registry: pluginDeps.registry }));

    app.get(
      '/api/admin/pairs',
      {
        schema: {
          tags,
          summary: 'All pairs, disabled ones included',
          response: { 200: MarketPairList, ...errorResponses(401, 403) },
        },
      },
      async () => withRiskQuotes(db, await listPairs(db, PAIRS_KNOWN_MAX, clock.nowMs())),
    );

    app.get(
      '/api/admin/feeds',
      {
        schema: {
          tags,
          summary: "Every pair's feed and reference feed, with their health as price-ingest last reported it",
          response: { 200: AdminFeedList, ...errorResponses(401, 403) },
        },
      },
      async () => ({
        providers: [...FEED_PROVIDERS],
        items: await listPairFeeds(db, PAIRS_KNOWN_MAX, clock.nowMs()),
      }),
    );

    app.put(
      '/api/admin/pairs/:symbol/feed',
      {
        schema: {
          tags,
          summary:
            "Replace a pair's price feed and reference feed; price-ingest switches within its pairs poll, without a restart",
          params: PairSymbolParams,
          body: UpdatePairFeedBody,
          response: { 200: MarketPair, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const symbol = request.params.symbol.toUpperCase();
        const feed = normaliseFeed(request.body);
        return db.transaction().execute(async (trx) => {
          const before = await lockPair(trx, symbol);
          if (!before) throw new PairNotFound(symbol);
          const after = await setPairFeed(trx, symbol, feed);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'pair.feed',
            target: symbol,
            before,
            after,
            at: clock.nowMs(),
          });
          return (await withRiskQuotes(trx, [(await readPair(trx, symbol, clock.nowMs()))!]))[0]!;
        });
      },
    );

    app.post(
      '/api/admin/pairs',
      {
        schema: {
          tags,
          summary: 'Add a pair; the price feed picks it up by itself',
          body: AddPairBody,
          response: { 201: MarketPair, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const pair = normaliseNewPair(request.body);
        const created = await db.transaction().execute(async (trx) => {
          const settings = await lockPlatformSettings(trx);
          const row = await insertPair(trx, { ...pair, payoutPct: settings.payout_pct });
          if (!row) throw new DomainError('PAIR_EXISTS', `Pair ${pair.symbol} already exists`);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'pair.create',
            target: pair.symbol,
            before: null,
            after: row,
            at: clock.nowMs(),
          });
          return (await withRiskQuotes(trx, [(await readPair(trx, pair.symbol, clock.nowMs()))!]))[0]!;
        });
        return reply.code(201).send(created);
      },
    );

    app.patch(
      '/api/admin/pairs/:symbol',
      {
        schema: {
          tags,
          summary: 'Enable or disable a pair',
          params: PairSymbolParams,
          body: UpdatePairBody,
          response: { 200: MarketPair, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const symbol = request.params.symbol.toUpperCase();
        return db.transaction().execute(async (trx) => {
          const before = await lockPair(trx, symbol);
          if (!before) throw new PairNotFound(symbol);
          const after = await setPairActive(trx, symbol, request.body.active);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'pair.update',
            target: symbol,
            before,
            after,
            at: clock.nowMs(),
          });
          return (await withRiskQuotes(trx, [(await readPair(trx, symbol, clock.nowMs()))!]))[0]!;
        });
      },
    );

    app.delete(
      '/api/admin/pairs/:symbol',
      {
        schema: {
          tags,
          summary: 'Delete a pair that has no pending trades',
          params: PairSymbolParams,
          response: { 200: StatusOkResponse, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const symbol = request.params.symbol.toUpperCase();
        await db.transaction().execute(async (trx) => {
          const before = await lockPair(trx, symbol);
          if (!before) throw new PairNotFound(symbol);
          if (await hasPendingTrades(trx, symbol)) {
            throw new DomainError(
              'PAIR_HAS_PENDING_TRADES',
              `Cannot delete ${symbol} while it has pending trades; disable it and try again after they settle`,
            );
          }
          await deletePair(trx, symbol);
          await forgetPairRisk(trx, symbol);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'pair.delete',
            target: symbol,
            before,
            after: null,
            at: clock.nowMs(),
          });
        });
        return { status: 'ok' as const };
      },
    );

    app.get(
      '/api/admin/settings',
      {
        schema: {
          tags,
          summary: 'Platform settings',
          response: { 200: PlatformSettings, ...errorResponses(401, 403) },
        },
      },
      async () => {
        const settings = await readSettings(db);
        return {
          payout_pct: settings.payout_pct,
          require_deposit_approval: settings.require_deposit_approval,
        };
      },
    );

    app.post(
      '/api/admin/settings',
      {
        schema: {
          tags,
          summary: 'Change the payout (new trades only; every pair follows) and the deposit-approval rule',
          body: UpdateSettingsBody,
          response: { 200: PlatformSettings, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const payout =
          request.body.payout_pct === undefined ? undefined : checkPayoutPct(request.body.payout_pct);
        return db.transaction().execute(async (trx) => {
          const before = await lockPlatformSettings(trx);
          const after = {
            payout_pct: payout ?? before.payout_pct,
            require_deposit_approval:
              request.body.require_deposit_approval ?? before.require_deposit_approval,
          };
          await updatePlatformSettings(
            trx,
            { payoutPct: after.payout_pct, requireDepositApproval: after.require_deposit_approval },
            clock.nowMs(),
          );
          // Placement copies the pair's payout onto the trade: the new payout applies to trades placed from now on.
          await setEveryPairPayout(trx, after.payout_pct);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'settings.update',
            target: 'platform_settings',
            before,
            after,
            at: clock.nowMs(),
          });
          return after;
        });
      },
    );

    for (const [path, kind] of [
      ['deposits', 'deposit'],
      ['withdrawals', 'withdrawal'],
    ] as const satisfies readonly (readonly [string, PaymentRequestKind])[]) {
      app.get(
        `/api/admin/${path}`,
        {
          schema: {
            tags,
            summary: `${path[0]!.toUpperCase()}${path.slice(1)}, newest first`,
            querystring: AdminRequestsQuery,
            response: { 200: PaymentRequestList, ...errorResponses(400, 401, 403) },
          },
        },
        async (request) => {
          const rows = await listRequests(db, kind, {
            limit: request.query.limit ?? ADMIN_REQUESTS_LIMIT_DEFAULT,
            status: request.query.status,
          });
          if (kind === 'deposit') return rows.map(paymentRequestView);
          // The approver sees whether the trader's identity is verified.
          const statuses = await identityStatuses(
            db,
            rows.map((r) => r.user_id),
          );
          return rows.map((row) => ({
            ...paymentRequestView(row),
            identity_status: statuses.get(row.user_id) ?? 'not_started',
          }));
        },
      );

      app.post(
        `/api/admin/${path}/:id`,
        {
          schema: {
            tags,
            summary: 'Approve or reject a pending request (exactly once)',
            params: RequestIdParams,
            body: RequestDecisionBody,
            response: { 200: PaymentRequest, ...errorResponses(400, 401, 402, 403, 404, 409) },
          },
        },
        async (request) => {
          const decided = await decideRequest(
            deps,
            kind,
            { id: request.params.id, decision: request.body.action, adminId: request.user.id },
            { onDecided: auditDecision },
          );
          return paymentRequestView(decided);
        },
      );
    }
  };
}
