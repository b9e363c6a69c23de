import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import {
  changePairActive,
  changePairFeed,
  changeSettings,
  createPair,
  removePair,
  withRiskQuotes,
} from '@updown/order';
import { FEED_PROVIDERS, listPairFeeds, listPairs, PAIRS_KNOWN_MAX } from '@updown/price-ingest';
import type { Clock, Database, Registry } from '@updown/runtime';
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
  auditDecision,
  decideRequest,
  listRequests,
  mockPaymentProvider,
  readSettings,
  type PaymentProvider,
  type PaymentRequestKind,
  type WalletDeps,
} from '@updown/wallet';
import { errorResponses } from '../http/responses';
import { paymentRequestView } from '../shared/payment-request.view';
import { identityStatuses } from '@updown/accounts';
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

const tags = ['admin'];

/**
 * `/api/admin/*` (spec §7 Admin). No guard is written here: the auth plugin puts
 * `requireAdmin` on every `/api/admin/*` route, and `buildApp` refuses to start without it.
 * Every change writes an `admin_audit` row in the transaction of the change, which a handler opens
 * (order's `pair-admin.handler.ts` and `platform-settings.handler.ts`; the wallet's
 * `decideRequest` for payments).
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
      async (request) =>
        changePairFeed(deps, request.user.id, request.params.symbol.toUpperCase(), request.body),
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
      async (request, reply) => reply.code(201).send(await createPair(deps, request.user.id, request.body)),
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
      async (request) =>
        changePairActive(deps, request.user.id, request.params.symbol.toUpperCase(), request.body.active),
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
        await removePair(deps, request.user.id, request.params.symbol.toUpperCase());
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
      async (request) => changeSettings(deps, request.user.id, request.body),
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
