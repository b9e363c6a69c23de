import {
  candlesBetween,
  currenciesOf,
  field,
  isoTime,
  numberParam,
  splitSymbol,
  stringList,
  type Dialect,
  type DialectHost,
  type Quote,
  type RestReply,
  type Session,
} from './dialect';

/**
 * Coinbase Advanced Trade: the public `/api/v3/brokerage/market/products` list and candles, and
 * the `/v2` currency, crypto-currency and exchange-rate lists ccxt reads while loading markets.
 * On the socket, `subscribe`/`unsubscribe` to the `ticker` channel (answered on the
 * `subscriptions` channel with what the socket is subscribed to), a `snapshot` event on
 * subscribe and `update` events after it. The `ws` server answers ping frames itself.
 */

const CANDLES_MAX = 350;
const FIAT = new Set(['USD', 'EUR', 'GBP']);
const TICKER_CHANNELS = new Set(['ticker', 'ticker_batch']);

/** `BTC/USDT` as Coinbase names it, `BTC-USDT`. */
function productId(sourceSymbol: string): string {
  const { base, quote } = splitSymbol(sourceSymbol);
  return `${base}-${quote}`;
}

function symbolOfProduct(id: string, host: DialectHost): string | undefined {
  return host.symbols.find((symbol) => productId(symbol) === id);
}

function product(sourceSymbol: string): Record<string, unknown> {
  const { base, quote } = splitSymbol(sourceSymbol);
  return {
    product_id: productId(sourceSymbol),
    price: '',
    base_increment: '0.00000001',
    quote_increment: '0.01',
    quote_min_size: '1',
    quote_max_size: '10000000',
    base_min_size: '0.00000001',
    base_max_size: '3400',
    base_name: base,
    quote_name: quote,
    status: 'online',
    trading_disabled: false,
    is_disabled: false,
    product_type: 'SPOT',
    quote_currency_id: quote,
    base_currency_id: base,
    alias_to: [],
    base_display_symbol: base,
    quote_display_symbol: quote,
    price_increment: '0.01',
    display_name: productId(sourceSymbol),
  };
}

function products(query: URLSearchParams, host: DialectHost): RestReply {
  // Futures and perpetuals are asked for separately; the fake lists spot products only.
  const type = query.get('product_type');
  const listed = type !== null && type !== 'SPOT' ? [] : host.symbols.map(product);
  return { status: 200, body: { products: listed, num_products: listed.length } };
}

function currencies(host: DialectHost, fiat: boolean): RestReply {
  const codes = currenciesOf(host.symbols).filter((code) => FIAT.has(code) === fiat);
  const data = codes.map((code, index) =>
    fiat
      ? { id: code, name: `${code} currency`, min_size: '0.01' }
      : {
          asset_id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
          code,
          name: `${code} coin`,
          color: '#000000',
          sort_index: index,
          exponent: 8,
          type: 'crypto',
          address_regex: '^.+$',
        },
  );
  return { status: 200, body: { data } };
}

function exchangeRates(host: DialectHost): RestReply {
  const rates = Object.fromEntries(currenciesOf(host.symbols).map((code) => [code, '1']));
  return { status: 200, body: { data: { currency: 'USD', rates } } };
}

function candles(path: string, query: URLSearchParams, host: DialectHost): RestReply {
  const id = decodeURIComponent(path.split('/')[6] ?? '');
  const sourceSymbol = symbolOfProduct(id, host);
  if (!sourceSymbol) return { status: 404, body: { error: 'NOT_FOUND', message: 'product not found' } };
  if (query.get('granularity') !== 'ONE_MINUTE') {
    return { status: 400, body: { error: 'INVALID_ARGUMENT', message: 'unsupported granularity' } };
  }
  const fromSec = numberParam(query, 'start', 0);
  const toSec = numberParam(query, 'end', Number.MAX_SAFE_INTEGER);
  const limit = Math.min(numberParam(query, 'limit', CANDLES_MAX), CANDLES_MAX);
  const rows = candlesBetween(host.candles(sourceSymbol), fromSec, toSec, limit).map((c) => ({
    start: String(c.bucketStartSec),
    low: String(c.low),
    high: String(c.high),
    open: String(c.open),
    close: String(c.close),
    volume: '1',
  }));
  // Coinbase lists candles newest first.
  return { status: 200, body: { candles: rows.reverse() } };
}

function tickerMessage(
  sourceSymbol: string,
  quote: Quote,
  type: string,
  sequence: number,
  last: string,
): string {
  const ticker = {
    type: 'ticker',
    product_id: productId(sourceSymbol),
    price: last,
    volume_24_h: '100',
    low_24_h: last,
    high_24_h: last,
    low_52_w: last,
    high_52_w: last,
    price_percent_chg_24_h: '0',
    best_bid: last,
    best_bid_quantity: '1',
    best_ask: last,
    best_ask_quantity: '1',
  };
  const events = [{ type, tickers: [ticker] }];
  return JSON.stringify({
    channel: 'ticker',
    client_id: '',
    timestamp: isoTime(quote.atMs),
    sequence_num: sequence,
    events,
  });
}

function subscriptionsMessage(session: Session): string {
  const ids = [...session.topics.keys()].map(productId);
  const subscriptions = ids.length > 0 ? { ticker: ids } : {};
  return JSON.stringify({
    channel: 'subscriptions',
    client_id: '',
    timestamp: isoTime(Date.now()),
    sequence_num: session.nextSeq(),
    events: [{ subscriptions }],
  });
}

export const coinbaseDialect: Dialect = {
  wsPath: '/',
  snapshotOnSubscribe: true,

  rest(path, query, host) {
    if (path === '/v2/currencies') return currencies(host, true);
    if (path === '/v2/currencies/crypto') return currencies(host, false);
    if (path === '/v2/exchange-rates') return exchangeRates(host);
    if (path === '/api/v3/brokerage/time') {
      const now = Date.now();
      return { status: 200, body: { iso: isoTime(now), epochSeconds: String(Math.floor(now / 1000)) } };
    }
    if (path === '/api/v3/brokerage/market/products') return products(query, host);
    if (/^\/api\/v3\/brokerage\/market\/products\/[^/]+\/candles$/.test(path))
      return candles(path, query, host);
    return { status: 404, body: { error: 'NOT_FOUND', message: `No such endpoint: ${path}` } };
  },

  message(session, message, host) {
    const type = field(message, 'type');
    const channel = field(message, 'channel');
    const ids = stringList(field(message, 'product_ids'));
    if ((type !== 'subscribe' && type !== 'unsubscribe') || typeof channel !== 'string') {
      session.send(JSON.stringify({ type: 'error', message: 'Failed to parse the request' }));
      return;
    }
    const symbols = TICKER_CHANNELS.has(channel) ? ids.map((id) => symbolOfProduct(id, host)) : [];
    if (symbols.some((symbol) => symbol === undefined)) {
      session.send(JSON.stringify({ type: 'error', message: `Failed to subscribe: unknown product` }));
      return;
    }
    const known = symbols.filter((symbol): symbol is string => symbol !== undefined);
    if (type === 'unsubscribe') for (const symbol of known) host.unsubscribe(session, symbol);
    else for (const symbol of known) session.topics.set(symbol, channel);
    session.send(subscriptionsMessage(session));
    // The acknowledgement goes first; the snapshots follow it, as on the real socket.
    if (type === 'subscribe') for (const symbol of known) host.subscribe(session, symbol, channel);
  },

  ticker(session, sourceSymbol, quote, snapshot) {
    const type = snapshot ? 'snapshot' : 'update';
    return tickerMessage(sourceSymbol, quote, type, session.nextSeq(), String(quote.price));
  },

  malformed(session, sourceSymbol) {
    return tickerMessage(
      sourceSymbol,
      { price: 1, atMs: Date.now() },
      'update',
      session.nextSeq(),
      'not-a-price',
    );
  },

  record(sourceSymbol, quote, index) {
    return tickerMessage(sourceSymbol, quote, 'update', index, String(quote.price));
  },

  symbolOf(message, host) {
    const events = field(message, 'events');
    const first = Array.isArray(events) ? (events[0] as unknown) : undefined;
    const tickers = field(first, 'tickers');
    const id = field(Array.isArray(tickers) ? (tickers[0] as unknown) : undefined, 'product_id');
    return typeof id === 'string' ? symbolOfProduct(id, host) : undefined;
  },
};
