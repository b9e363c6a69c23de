import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { LogController, type FastifyError } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql, type Kysely } from 'kysely';
import {
  DatabaseUnavailable,
  DomainError,
  isDatabaseUnavailable,
  type Database,
  type Logger,
  type Registry,
} from '@updown/runtime';
import type { PlaceTradeRequest, PlaceTradeResult } from '../trades/place-trade.handler';
import { publicTrade } from './public-trade';
import { serialiseTrade } from './trade-serialiser';
import {
  DOMAIN_REFUSAL_STATUS,
  PLACE_TRADE_PATH,
  TRADE_VIEW_HEADER,
  type PlaceTradeCommand,
  type PlaceTradeReply,
} from './place-trade.wire';

export interface OrderAppDeps {
  readonly placeTrade: (request: PlaceTradeRequest) => Promise<PlaceTradeResult>;
  readonly db: Kysely<Database>;
  readonly registry: Registry;
  readonly logger: Logger;
  /** The shared secret the gateway must present. */
  readonly serviceToken: string;
}

/** As Fastify types the JSON it serialises; a string sent with it goes out as it is. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Internal bodies are small and fixed-shape: anything bigger is not from the gateway. */
const BODY_LIMIT_BYTES = 16 * 1024;

function placeTradeRequest(body: PlaceTradeCommand): PlaceTradeRequest {
  return {
    userId: body.user_id,
    pair: body.pair,
    direction: body.direction,
    amountCents: body.amount_cents,
    durationSec: body.duration_sec,
    accountType: body.account_type,
    idempotencyKey: body.idempotency_key,
    expectedPayoutPct: body.expected_payout_pct,
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * The order service's own HTTP face when it runs alone: the internal placement call (service
 * token required), plus `/healthz`, `/readyz` and `/metrics` on the same port. Never exposed to
 * browsers; the gateway is its only client.
 */
export function buildOrderApp(deps: OrderAppDeps) {
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // No line per request: the gateway logs each placement; this call is its internal hop. Set
    // through the log controller because the top-level option is deprecated (FSTDEP023).
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Both sides hashed to equal length first, so the comparison time says nothing about the token.
  const expected = digest(deps.serviceToken);

  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    // A lost or read-only database is a refusal the gateway answers with 503 and Retry-After.
    const error = isDatabaseUnavailable(thrown) ? new DatabaseUnavailable() : thrown;
    if (error instanceof DomainError) {
      return reply.code(DOMAIN_REFUSAL_STATUS).send({ detail: error.message, code: error.code });
    }
    if (error.validation) return reply.code(400).send({ detail: error.message, code: 'VALIDATION' });
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'placement failed');
    return reply
      .code(status)
      .send(
        status === 500
          ? { detail: 'Internal Server Error', code: 'INTERNAL' }
          : { detail: error.message, code: 'BAD_REQUEST' },
      );
  });

  app.post<{ Body: PlaceTradeCommand }>(
    PLACE_TRADE_PATH,
    {
      // No body schema: see PlaceTradeCommand. No response schema either: the answer is written
      // below by the serialiser the gateway's place route uses, so the gateway can send it on.
      onRequest: (request, reply, done) => {
        const header = request.headers.authorization ?? '';
        const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
        if (!timingSafeEqual(digest(presented), expected)) {
          reply.code(401).send({ detail: 'A valid service token is required', code: 'UNAUTHORIZED' });
          return;
        }
        done();
      },
    },
    async (request, reply) => {
      const result = await deps.placeTrade(placeTradeRequest(request.body));
      const trade = result.trade;
      if (trade.status === 'pending' && request.headers[TRADE_VIEW_HEADER] !== 'row') {
        return reply
          .code(result.replayed ? 200 : 201)
          .header(TRADE_VIEW_HEADER, 'public')
          .type(JSON_CONTENT_TYPE)
          .send(serialiseTrade(publicTrade(trade, null)));
      }
      const answer: PlaceTradeReply = {
        trade: { ...trade, created_at: trade.created_at.toISOString() },
        replayed: result.replayed,
      };
      return reply
        .code(200)
        .header(TRADE_VIEW_HEADER, 'row')
        .type(JSON_CONTENT_TYPE)
        .send(JSON.stringify(answer));
    },
  );

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await sql`select 1`.execute(deps.db);
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ detail: 'Not ready: database', code: 'NOT_READY' });
    }
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(deps.registry.contentType).send(await deps.registry.metrics()),
  );
  return app;
}
