import type { Exchange } from 'ccxt';
import type { Logger } from '@updown/runtime';
import {
  ccxtApiUrls,
  type CcxtApiUrls,
  type ExchangeEndpoints,
  type ExchangeId,
} from './ccxt-endpoints.domain';
import type { Ccxt } from './ccxt-loader';

/**
 * How the provider sets up and handles a ccxt exchange client: the options per exchange, the
 * parameters of its ticker calls, what a failure means, and closing one pair's socket.
 */

/** A REST call (markets, candles) that takes longer has failed. */
const REST_TIMEOUT_MS = 10_000;
/** Messages a client sends on one socket (subscriptions) go out at most four a second. */
const WS_SEND_GAP_MS = 250;

/**
 * Extra parameters of `watchTicker` and `unWatchTicker`. ccxt streams Binance's `miniTicker` by
 * default; the full `ticker` stream carries the best bid and ask as well, and unsubscribing must
 * name the same stream.
 */
const TICKER_PARAMS: Partial<Record<ExchangeId, Record<string, string>>> = { binance: { name: 'ticker' } };

/**
 * Where unsubscribing works per pair. Coinbase acknowledges an unsubscribe only once nothing is
 * left subscribed, so with other pairs streaming the call would hang and block every later one;
 * Kraken has none. There, a removed pair's messages are simply no longer read.
 */
const UNWATCH_PER_PAIR: ReadonlySet<ExchangeId> = new Set(['binance']);

/** The extra ticker parameters, a fresh copy each call: ccxt may add to what it is given. */
export function tickerParams(exchange: ExchangeId): Record<string, string> {
  return { ...TICKER_PARAMS[exchange] };
}

export function unwatchesPerPair(exchange: ExchangeId): boolean {
  return UNWATCH_PER_PAIR.has(exchange);
}

/**
 * Options per exchange. Binance lists its futures markets from other hosts; the feed streams spot
 * only, so it asks for the spot list alone (and neither margin pairs nor currencies, which need
 * keys). Reconnect pacing is the provider's own, per pair and with jitter: ccxt's per-URL backoff
 * would stack on top of it and outgrow `backoffMsMax`, so it is switched off.
 */
function exchangeOptions(exchange: ExchangeId): Record<string, unknown> {
  const ws = { backoff: { base: 0 } };
  if (exchange !== 'binance') return { ws };
  return { ws, fetchMarkets: { types: ['spot'] }, fetchMargins: false, fetchCurrencies: false };
}

/** A streaming client for `id`, public data only (no keys), pointed at `endpoints` when given. */
export function createExchange(
  ccxt: Ccxt,
  id: ExchangeId,
  endpoints: ExchangeEndpoints | undefined,
): Exchange {
  const exchange = new ccxt.pro[id]({
    enableRateLimit: true,
    timeout: REST_TIMEOUT_MS,
    options: exchangeOptions(id),
  });
  if (endpoints) exchange.urls.api = ccxtApiUrls(id, exchange.urls.api as CcxtApiUrls, endpoints);
  adaptSockets(exchange);
  return exchange;
}

/**
 * Adjusts every socket ccxt makes. ccxt paces a socket's messages with the REST rate limit (Kraken:
 * one a second), so with many pairs on one socket the last subscription would go out after its
 * stall timer ran out, and each stall closes the socket for all of them: a socket's messages are
 * paced at WS_SEND_GAP_MS instead, within what each exchange allows on one connection. And ccxt
 * sends a paced message without handling its failure: when the socket closes while the message
 * waits its turn, the rejection is unhandled, which ends a Node process. The close itself rejects
 * the watch waiting on that subscription, so the failed send carries no news and is marked handled.
 */
function adaptSockets(exchange: Exchange): void {
  const makeClient = exchange.client.bind(exchange);
  const adapted = new WeakSet<object>();
  exchange.client = (url) => {
    const client = makeClient(url);
    if (adapted.has(client)) return client;
    adapted.add(client);
    client.throttle = pacer(WS_SEND_GAP_MS);
    const send = client.send.bind(client);
    client.send = (message: unknown) => {
      const sent = send(message);
      sent.catch(() => undefined);
      return sent;
    };
    return client;
  };
}

/** Resolves calls in turn, each at least `gapMs` after the one before. */
function pacer(gapMs: number): () => Promise<void> {
  let nextAtMs = 0;
  return () => {
    const now = performance.now();
    const atMs = Math.max(now, nextAtMs);
    nextAtMs = atMs + gapMs;
    return atMs <= now ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, atMs - now));
  };
}

/**
 * Whether a failed watch means the stream dropped or that one message could not be read. ccxt
 * reports connection and exchange trouble with its own error classes; anything else (a
 * TypeError, a SyntaxError, ccxt's BadResponse) came out of reading one message.
 */
export function classifyFailure(ccxt: Ccxt, error: unknown): 'dropped' | 'malformed' {
  if (error instanceof ccxt.NetworkError || error instanceof ccxt.ExchangeError) return 'dropped';
  if (error instanceof ccxt.UnsubscribeError) return 'dropped';
  if (error instanceof ccxt.BadResponse) return 'malformed';
  return error instanceof ccxt.BaseError ? 'dropped' : 'malformed';
}

/**
 * Closes the sockets that carry `sourceSymbol` the way ccxt's own `close` does, one client at a
 * time: marked closed by the user, so its waiters are rejected and ccxt's close handler leaves
 * the client registry alone (it removes by URL, and would remove the replacement instead).
 * Other pairs on the same socket see the drop and resubscribe on their own.
 */
export function closeSocketsOf(ccxt: Ccxt, exchange: Exchange, sourceSymbol: string, logger: Logger): void {
  for (const [url, client] of Object.entries(exchange.clients ?? {})) {
    // ccxt keys a subscription by a hash naming the symbol: `ticker:ticker@BTC/USDT`, `ticker::BTC/USDT`.
    const hashes = [...Object.keys(client.subscriptions ?? {}), ...Object.keys(client.futures ?? {})];
    if (!hashes.some((hash) => hash.split(/[:@,]/).includes(sourceSymbol))) continue;
    client.error = new ccxt.ExchangeClosedByUser(
      `${exchange.id} stream of ${sourceSymbol} closed to reconnect`,
    );
    delete exchange.clients[url];
    try {
      client.close();
    } catch (error) {
      logger.debug({ err: error, url }, 'closing an exchange socket failed');
    }
  }
}
