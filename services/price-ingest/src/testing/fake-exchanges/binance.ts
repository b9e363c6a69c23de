import {
  candlesBetween,
  field,
  numberParam,
  splitSymbol,
  stringList,
  type Dialect,
  type DialectHost,
  type Quote,
  type RestReply,
} from './dialect';

/**
 * Binance spot: `GET /api/v3/exchangeInfo` and `/api/v3/klines` over REST; on the `/ws` socket,
 * `SUBSCRIBE`/`UNSUBSCRIBE`/`LIST_SUBSCRIPTIONS` requests answered `{"result":…,"id":…}`, and
 * `<symbol>@ticker` (`24hrTicker`) or `<symbol>@miniTicker` (`24hrMiniTicker`) stream events.
 * Binance sends no snapshot on subscribe; the `ws` server answers ping frames itself.
 */

const KLINES_LIMIT_DEFAULT = 500;
const KLINES_LIMIT_MAX = 1_000;
const STREAM_PATTERN = /^([a-z0-9]+)@(ticker|miniTicker)$/;

/** `BTC/USDT` as Binance names it, `BTCUSDT`. */
function marketId(sourceSymbol: string): string {
  const { base, quote } = splitSymbol(sourceSymbol);
  return `${base}${quote}`;
}

function symbolOfId(id: string, host: DialectHost): string | undefined {
  return host.symbols.find((symbol) => marketId(symbol) === id.toUpperCase());
}

function price(value: number): string {
  return value.toFixed(8);
}

function exchangeInfo(host: DialectHost): RestReply {
  const symbols = host.symbols.map((sourceSymbol) => {
    const { base, quote } = splitSymbol(sourceSymbol);
    return {
      symbol: marketId(sourceSymbol),
      status: 'TRADING',
      baseAsset: base,
      baseAssetPrecision: 8,
      quoteAsset: quote,
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'],
      icebergAllowed: true,
      ocoAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      filters: [
        {
          filterType: 'PRICE_FILTER',
          minPrice: '0.01000000',
          maxPrice: '1000000.00000000',
          tickSize: '0.01000000',
        },
        { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
      ],
      permissions: [],
      permissionSets: [['SPOT']],
    };
  });
  const body = { timezone: 'UTC', serverTime: Date.now(), rateLimits: [], exchangeFilters: [], symbols };
  return { status: 200, body };
}

function klines(query: URLSearchParams, host: DialectHost): RestReply {
  const sourceSymbol = symbolOfId(query.get('symbol') ?? '', host);
  if (!sourceSymbol) return { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } };
  if (query.get('interval') !== '1m') return { status: 400, body: { code: -1120, msg: 'Invalid interval.' } };
  const limit = Math.min(Math.max(1, numberParam(query, 'limit', KLINES_LIMIT_DEFAULT)), KLINES_LIMIT_MAX);
  const fromSec = Math.ceil(numberParam(query, 'startTime', 0) / 1000);
  const toSec = numberParam(query, 'endTime', Number.MAX_SAFE_INTEGER) / 1000 + 1;
  const rows = candlesBetween(host.candles(sourceSymbol), fromSec, toSec, limit).map((c) => {
    const openMs = c.bucketStartSec * 1000;
    const [o, h, l, cl] = [c.open, c.high, c.low, c.close].map(price);
    return [
      openMs,
      o,
      h,
      l,
      cl,
      '1.00000000',
      openMs + 59_999,
      '0.00000000',
      1,
      '0.00000000',
      '0.00000000',
      '0',
    ];
  });
  return { status: 200, body: rows };
}

function tickerEvent(sourceSymbol: string, quote: Quote, variant: string): Record<string, unknown> {
  const last = price(quote.price);
  const common = { E: quote.atMs, s: marketId(sourceSymbol), c: last, o: last, h: last, l: last };
  if (variant === 'miniTicker') return { e: '24hrMiniTicker', ...common, v: '100.00000000', q: '0.00000000' };
  return {
    e: '24hrTicker',
    ...common,
    p: '0.00000000',
    P: '0.000',
    w: last,
    x: last,
    Q: '0.01000000',
    b: last,
    B: '1.00000000',
    a: last,
    A: '1.00000000',
    v: '100.00000000',
    q: '0.00000000',
    O: quote.atMs - 86_400_000,
    C: quote.atMs,
    F: 1,
    L: 100,
    n: 100,
  };
}

export const binanceDialect: Dialect = {
  wsPath: '/ws',
  snapshotOnSubscribe: false,

  rest(path, query, host) {
    if (path === '/api/v3/ping') return { status: 200, body: {} };
    if (path === '/api/v3/time') return { status: 200, body: { serverTime: Date.now() } };
    if (path === '/api/v3/exchangeInfo') return exchangeInfo(host);
    if (path === '/api/v3/klines') return klines(query, host);
    return { status: 404, body: { code: -1, msg: `No such endpoint: ${path}` } };
  },

  message(session, message, host) {
    const method = field(message, 'method');
    const id = field(message, 'id') ?? null;
    const streams = stringList(field(message, 'params'));
    if (method === 'SUBSCRIBE' || method === 'UNSUBSCRIBE') {
      for (const stream of streams) {
        const match = STREAM_PATTERN.exec(stream);
        const sourceSymbol = match?.[1] ? symbolOfId(match[1], host) : undefined;
        if (!match?.[2] || !sourceSymbol) continue;
        if (method === 'SUBSCRIBE') host.subscribe(session, sourceSymbol, match[2]);
        else host.unsubscribe(session, sourceSymbol);
      }
      session.send(JSON.stringify({ result: null, id }));
      return;
    }
    if (method === 'LIST_SUBSCRIPTIONS') {
      const result = [...session.topics].map(
        ([symbol, variant]) => `${marketId(symbol).toLowerCase()}@${variant}`,
      );
      session.send(JSON.stringify({ result, id }));
      return;
    }
    session.send(JSON.stringify({ error: { code: 2, msg: `Invalid request: unknown method` }, id }));
  },

  ticker(session, sourceSymbol, quote) {
    return JSON.stringify(tickerEvent(sourceSymbol, quote, session.topics.get(sourceSymbol) ?? 'ticker'));
  },

  malformed(_session, sourceSymbol) {
    const event = tickerEvent(sourceSymbol, { price: 1, atMs: Date.now() }, 'ticker');
    for (const key of ['c', 'o', 'h', 'l', 'w', 'x', 'b', 'a']) event[key] = 'not-a-price';
    return JSON.stringify(event);
  },

  record(sourceSymbol, quote) {
    return JSON.stringify(tickerEvent(sourceSymbol, quote, 'ticker'));
  },

  symbolOf(message, host) {
    const id = field(message, 's');
    return typeof id === 'string' ? symbolOfId(id, host) : undefined;
  },
};
