import { withRiskQuotes } from '@updown/order';
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { WebSocket } from 'ws';
import { listPairs, PAIRS_KNOWN_MAX, recentCandles } from '@updown/price-ingest';
import { DomainError, type Clock, type Database, type Logger, type Registry } from '@updown/runtime';
import type { EventOf } from '@updown/schemas';
import {
  CandleList,
  CANDLES_LIMIT_DEFAULT,
  CandlesQuery,
  MARKET_WS_CLOSE,
  MarketPairList,
  PAIR_SYMBOL_LENGTH_MAX,
  PAIR_SYMBOL_PATTERN,
} from '@updown/schemas/api';
import { TIMEFRAMES } from '@updown/schemas/market';
import { errorResponses } from '../http/responses';
import { WS_CLOSE_GRACE_MS } from '../http/websocket';
import { AddressLimit } from './address-limit';
import { MARKET_PLUGIN_DEFAULTS, type MarketPluginOptions } from './market.config';
import { marketWsMetrics } from './market.metrics';
import { PairDirectory } from './pair-directory';
import { TickFanout } from './tick-fanout';

const TICKS_TOPIC = 'market.ticks.v1';

/** The part of the runtime's `Bus` this plugin uses; any adapter fits. */
export interface MarketTickSubscriber {
  subscribe(
    topic: typeof TICKS_TOPIC,
    group: string,
    handler: (event: EventOf<typeof TICKS_TOPIC>) => Promise<void>,
    options?: { fromBeginning?: boolean },
  ): Promise<{ close(): Promise<void> }>;
}

export interface MarketPluginDeps {
  readonly db: Kysely<Database>;
  readonly bus: MarketTickSubscriber;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly clock: Clock;
  readonly options?: Partial<MarketPluginOptions>;
}

/**
 * The request schemas' pair shape (any case; symbols are upper-cased first). Symbols are echoed
 * in close reasons, which must stay short ASCII; anything else is refused unechoed.
 */
const SYMBOL_SHAPE = new RegExp(PAIR_SYMBOL_PATTERN);

type RefusalReason = 'invalid_pair' | 'unknown_pair' | 'capacity' | 'address_limit';

class UnknownPair extends DomainError {
  constructor(pair: string) {
    super('VALIDATION', `Unknown pair: ${pair}`);
  }
}

/**
 * Market data for the console: the pair list, candles from PostgreSQL, and the live price
 * WebSocket. Ticks reach the WebSocket through one bus subscription per gateway instance (its own
 * consumer group, starting at new messages), fanned out in memory to that instance's sockets.
 */
export function createMarketPlugin(deps: MarketPluginDeps): FastifyPluginAsyncTypebox {
  const options: MarketPluginOptions = { ...MARKET_PLUGIN_DEFAULTS, ...deps.options };
  return async (app) => {
    const logger = deps.logger.child({ component: 'market' });
    const metrics = marketWsMetrics(deps.registry);
    const pairs = new PairDirectory(deps.db, deps.clock);
    const fanout = new TickFanout(
      {
        clientsMax: options.wsClientsMax,
        bufferedBytesMax: options.wsBufferedBytesMax,
        slowClientTimeoutMs: options.wsSlowClientTimeoutMs,
      },
      deps.clock,
      metrics,
    );
    const removeBufferedSource = metrics.addBufferedSource(() => fanout.bufferedBytes());
    const addresses = new AddressLimit(options.wsClientsPerAddressMax);

    // @fastify/websocket is registered on the root by buildApp (see http/websocket.ts).
    if (!app.hasDecorator('websocketServer')) {
      throw new Error('createMarketPlugin needs @fastify/websocket registered on the root before it');
    }

    const group = `gateway-ws-${randomUUID().slice(0, 8)}`;
    const subscription = await deps.bus.subscribe(
      TICKS_TOPIC,
      group,
      async (event) => fanout.broadcast(event.payload),
      {
        fromBeginning: false,
      },
    );
    let stopHeartbeat = deps.clock.setTimeout(function beat() {
      fanout.heartbeat();
      stopHeartbeat = deps.clock.setTimeout(beat, options.wsHeartbeatIntervalMs);
    }, options.wsHeartbeatIntervalMs);
    app.addHook('onClose', async () => {
      stopHeartbeat();
      removeBufferedSource();
      await subscription.close();
    });

    app.get(
      '/api/market/pairs',
      {
        schema: {
          summary: 'Trading pairs, in display order; disabled pairs are listed with active false',
          tags: ['market'],
          response: { 200: MarketPairList, ...errorResponses() },
        },
      },
      async () => withRiskQuotes(deps.db, await listPairs(deps.db, PAIRS_KNOWN_MAX, deps.clock.nowMs())),
    );

    app.get(
      '/api/market/candles',
      {
        schema: {
          summary: 'The most recent candles of a pair, oldest first; the last one is still moving',
          tags: ['market'],
          querystring: CandlesQuery,
          response: { 200: CandleList, ...errorResponses(400) },
        },
      },
      async (request) => {
        const pair = request.query.pair.toUpperCase();
        if (!(await pairs.has(pair))) throw new UnknownPair(pair);
        // The schema refuses a limit above CANDLES_LIMIT_MAX (400), so the document states the cap.
        const limit = request.query.limit ?? CANDLES_LIMIT_DEFAULT;
        return recentCandles(deps.db, pair, TIMEFRAMES[request.query.timeframe], limit);
      },
    );

    app.get('/api/market/ws', { websocket: true }, async (socket: WebSocket, request) => {
      // Checked after the upgrade rather than by a query schema, so a bad pair is a close code
      // and reason the console can read rather than an HTTP error the browser hides.
      const raw = (request.query as Record<string, unknown>).pair;
      const refuse = (reason: RefusalReason, code: number, text: string) => {
        metrics.refused.inc({ reason });
        socket.close(code, text);
        // A client that never answers the close frame would hold the socket for ws's 30 s.
        const cut = setTimeout(() => socket.terminate(), WS_CLOSE_GRACE_MS);
        cut.unref();
        socket.once('close', () => clearTimeout(cut));
      };
      // Before anything else, so sockets of one address count in every state (see address-limit.ts).
      const address = request.ip;
      if (!addresses.tryAcquire(address)) {
        return refuse(
          'address_limit',
          MARKET_WS_CLOSE.TRY_AGAIN_LATER,
          'Too many connections from this address; try again later',
        );
      }
      socket.once('close', () => addresses.release(address));
      if (typeof raw !== 'string' || raw === '') {
        return refuse('invalid_pair', MARKET_WS_CLOSE.POLICY_VIOLATION, 'Missing pair query parameter');
      }
      const pair = raw.toUpperCase();
      if (pair.length > PAIR_SYMBOL_LENGTH_MAX || !SYMBOL_SHAPE.test(pair)) {
        return refuse('invalid_pair', MARKET_WS_CLOSE.POLICY_VIOLATION, 'Invalid pair');
      }
      if (!(await pairs.has(pair))) {
        return refuse('unknown_pair', MARKET_WS_CLOSE.POLICY_VIOLATION, `Unknown pair: ${pair}`);
      }
      if (socket.readyState !== socket.OPEN) return; // the client left while the pair was looked up
      const client = fanout.add(pair, socket);
      if (!client) {
        return refuse('capacity', MARKET_WS_CLOSE.TRY_AGAIN_LATER, 'Too many connections; try again later');
      }
      socket.on('close', () => fanout.remove(client));
      socket.on('pong', () => {
        client.alive = true;
      });
      logger.debug({ pair, clients: fanout.size }, 'price socket opened');
    });
  };
}
