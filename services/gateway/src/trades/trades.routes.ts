import {
  ActiveTradeList,
  dollarsToCents,
  IdempotencyHeaders,
  PlaceTradeBody,
  type ReferenceCheck,
  Trade,
  TradeEvidence,
  TradeHistoryQuery,
  TradeIdParams,
  TradeList,
} from '@updown/schemas/api';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { DomainError, type Clock, type Database } from '@updown/runtime';
import {
  findTrade,
  listActiveTrades,
  listTradeHistory,
  serialiseTrade,
  type OrderPort,
  type PlaceTradeRequest,
} from '@updown/order';
import { errorResponses } from '../http/responses';
import { activeTradeView, tradeView } from './trades.view';

/** A tick as the evidence API shows it (`ts`: Unix epoch milliseconds). */
export interface TickRef {
  readonly id: number | null;
  readonly ts: number;
  readonly price: number;
}

/** The stored ticks around a trade's entry and expiry; provided by the settlement service. */
export type EvidenceLoader = (tradeId: string) => Promise<{
  entry_tick: TickRef | null;
  exit_tick: TickRef | null;
  entry_window: TickRef[];
  exit_window: TickRef[];
  reference_check: ReferenceCheck | null;
}>;

export interface TradesPluginDeps {
  readonly db: Kysely<Database>;
  readonly order: OrderPort;
  readonly clock: Clock;
  readonly loadEvidence: EvidenceLoader;
}

const ACTIVE_LIMIT_MAX = 500;
/** What Fastify itself sets on a body it serialises, so a passed-through body looks the same. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const HISTORY_LIMIT_DEFAULT = 20;

/** Sends JSON text as it is: Fastify serialises nothing that is already a string. */
function sendJsonText(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.code(status).type(JSON_CONTENT_TYPE).send(json);
}

class TradeNotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'Trade not found');
  }
}

/**
 * `/api/trades/*`. Placement is forwarded to the order service through `OrderPort`; the reads are
 * the order service's trade queries. Dollars become cents here and nowhere else.
 */
export function createTradesPlugin(deps: TradesPluginDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/trades/place',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['trades'],
          summary: 'Place a trade',
          description:
            'Takes the entry price from the latest tick the server holds. Honours `Idempotency-Key`: a retry returns the first trade and debits once. ' +
            'Refusals with 409: `STALE_PRICE`, `FEEDS_DIVERGED` (the feeds), `PAYOUT_CHANGED` (the payout offered on the direction fell below `payout_pct`), ' +
            '`PAIR_SUSPENDED` (the loss breaker holds real trades on the pair), `EXPOSURE_CAP_REACHED` (the pair and direction), ' +
            "`OPEN_STAKE_CAP_REACHED` and `OPEN_TRADES_CAP_REACHED` (the trader's caps), `IDEMPOTENCY_CONFLICT`.",
          security: [{ bearerAuth: [] }],
          headers: IdempotencyHeaders,
          body: PlaceTradeBody,
          response: { 200: Trade, 201: Trade, ...errorResponses(400, 401, 409, 429, 503) },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const amountCents = dollarsToCents(body.amount);
        if (amountCents === undefined || amountCents <= 0) {
          throw new DomainError('INVALID_AMOUNT', 'Please enter a valid amount');
        }
        const placement: PlaceTradeRequest = {
          userId: request.user.id,
          pair: body.pair.trim().toUpperCase(),
          direction: body.direction,
          amountCents,
          durationSec: body.duration,
          accountType: body.account_type ?? 'demo',
          idempotencyKey: request.headers['idempotency-key'],
          expectedPayoutPct: body.payout_pct,
        };
        // The body is written by serialiseTrade here and by the order service alike (the schema
        // above documents it); as a string it still passes the JSON escape (http/json-escape.ts).
        if (deps.order.forwardPlacement === undefined) {
          const result = await deps.order.placeTrade(placement);
          return sendJsonText(reply, result.replayed ? 200 : 201, serialiseTrade(tradeView(result.trade)));
        }
        const answer = await deps.order.forwardPlacement(placement);
        if (answer.view === 'public') return sendJsonText(reply, answer.status, answer.body);
        const { trade, replayed } = answer.result;
        return sendJsonText(reply, replayed ? 200 : 201, serialiseTrade(tradeView(trade)));
      },
    );

    app.get(
      '/api/trades/active',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['trades'],
          summary: 'Pending trades whose expiry is in the future',
          security: [{ bearerAuth: [] }],
          response: { 200: ActiveTradeList, ...errorResponses(401) },
        },
      },
      async (request) => {
        const rows = await listActiveTrades(deps.db, request.user.id, deps.clock.nowMs(), ACTIVE_LIMIT_MAX);
        return rows.map(activeTradeView);
      },
    );

    app.get(
      '/api/trades/history',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['trades'],
          summary: 'Trades, newest first',
          security: [{ bearerAuth: [] }],
          querystring: TradeHistoryQuery,
          response: { 200: TradeList, ...errorResponses(400, 401) },
        },
      },
      async (request) => {
        const rows = await listTradeHistory(
          deps.db,
          request.user.id,
          request.query.limit ?? HISTORY_LIMIT_DEFAULT,
        );
        return rows.map(tradeView);
      },
    );

    app.get(
      '/api/trades/:id',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['trades'],
          summary: 'A trade with the stored ticks it entered and settled on',
          description:
            'The owner or an admin. Shows the exact entry and exit ticks and the stored ticks around each.',
          security: [{ bearerAuth: [] }],
          params: TradeIdParams,
          response: { 200: TradeEvidence, ...errorResponses(400, 401, 404) },
        },
      },
      async (request) => {
        const trade = await findTrade(deps.db, request.params.id);
        // Someone else's trade answers exactly like a missing one: ids are not confirmed to strangers.
        if (!trade || (trade.user_id !== request.user.id && request.user.role !== 'admin'))
          throw new TradeNotFound();
        const evidence = await deps.loadEvidence(trade.id);
        return { trade: tradeView(trade), ...evidence };
      },
    );
  };
}
