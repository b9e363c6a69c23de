import { LivePriceMessage, MARKET_WS_CLOSE, PAIR_SYMBOL_LENGTH_MAX, PAIR_SYMBOL_PATTERN } from './market';

/**
 * The AsyncAPI 3.0 document of the gateway's price WebSocket (`/api/market/ws?pair=X`): its
 * query, the one message it sends, and its close codes. The Kafka events have their own document
 * (`schemas/asyncapi.json`); both are written by `npm run schemas:asyncapi`, and the gateway
 * serves this one at `/docs/asyncapi/market-ws.json`, next to the OpenAPI document.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What each close code means to a client, and whether reconnecting with the same query helps. */
export const MARKET_WS_CLOSE_CODES: readonly { code: number; reason: string; reconnect: boolean }[] = [
  {
    code: MARKET_WS_CLOSE.POLICY_VIOLATION,
    reason: 'Missing, malformed or unknown pair (the reason names it, e.g. "Unknown pair: FOO")',
    reconnect: false,
  },
  {
    code: MARKET_WS_CLOSE.TRY_AGAIN_LATER,
    reason: 'The server, or this client address, is at its connection limit',
    reconnect: true,
  },
  { code: MARKET_WS_CLOSE.GOING_AWAY, reason: 'The server is shutting down', reconnect: true },
  {
    code: 1009,
    reason: 'The client sent a frame over 64 KiB (anything the client sends is otherwise ignored)',
    reconnect: true,
  },
];

const toJson = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;

export function buildMarketWsAsyncApiDocument(serverHost = 'localhost:8080'): Record<string, Json> {
  const closeCodes = MARKET_WS_CLOSE_CODES.map(
    (c) =>
      `${c.code}: ${c.reason}; ${c.reconnect ? 'reconnect after a pause' : 'do not reconnect with the same query'}.`,
  ).join(' ');
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Updown market WebSocket',
      version: '1.0.0',
      description:
        'Live prices from the gateway over a WebSocket. Generated from schemas/src/api by `npm run schemas:asyncapi`; do not edit by hand.',
    },
    defaultContentType: 'application/json',
    servers: {
      gateway: {
        host: serverHost,
        protocol: 'ws',
        description: 'The gateway (wss behind a TLS-terminating proxy); no authentication',
      },
    },
    channels: {
      marketPrices: {
        address: '/api/market/ws',
        title: 'Prices of one pair',
        description: `Open with ?pair=SYMBOL (any case). One text message per tick of that pair. A client that stops reading is skipped, then disconnected; the server pings every 30 s and drops a socket that misses a pong. Close codes: ${closeCodes}`,
        messages: { LivePrice: { $ref: '#/components/messages/LivePrice' } },
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              required: ['pair'],
              properties: {
                pair: {
                  type: 'string',
                  minLength: 1,
                  maxLength: PAIR_SYMBOL_LENGTH_MAX,
                  pattern: PAIR_SYMBOL_PATTERN,
                  description: 'Pair symbol such as BTCUSDT (any case)',
                },
              },
            },
            bindingVersion: '0.1.0',
          },
        },
        'x-close-codes': toJson(MARKET_WS_CLOSE_CODES),
      },
    },
    operations: {
      sendPrices: {
        action: 'send',
        channel: { $ref: '#/channels/marketPrices' },
        summary: 'The gateway sends each tick of the pair',
        messages: [{ $ref: '#/channels/marketPrices/messages/LivePrice' }],
      },
    },
    components: {
      messages: {
        LivePrice: {
          name: 'LivePrice',
          title: 'Live price',
          summary: 'One tick: {"pair":"BTCUSDT","price":95012.5,"ts":1767614400250}',
          contentType: 'application/json',
          payload: toJson(LivePriceMessage),
        },
      },
    },
  };
}
