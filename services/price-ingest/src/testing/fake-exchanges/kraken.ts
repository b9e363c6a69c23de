import {
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
 * Kraken spot: `GET /0/public/Assets`, `/0/public/AssetPairs` and `/0/public/OHLC` over REST
 * (`{"error":[],"result":…}`); the v2 socket on `/v2`, which greets with a `status` message,
 * answers `subscribe`/`unsubscribe` per symbol, sends a `ticker` `snapshot` on subscribe and
 * `update`s after it, answers the application-level `ping` with `pong` (ccxt drops a Kraken
 * socket that misses its pongs) and sends a `heartbeat` every second.
 */

const OHLC_ROWS_MAX = 720;
const HEARTBEAT_INTERVAL_MS = 1_000;
/** Kraken's own names for the currencies that have one (X for crypto, Z for fiat, XBT for bitcoin). */
const ASSET_IDS: Record<string, { id: string; altname: string }> = {
  BTC: { id: 'XXBT', altname: 'XBT' },
  ETH: { id: 'XETH', altname: 'ETH' },
  USD: { id: 'ZUSD', altname: 'USD' },
  EUR: { id: 'ZEUR', altname: 'EUR' },
};

function asset(code: string): { id: string; altname: string } {
  return ASSET_IDS[code] ?? { id: code, altname: code };
}

/** `BTC/USDT` as Kraken's REST API names it, `XBTUSDT`. */
function pairId(sourceSymbol: string): string {
  const { base, quote } = splitSymbol(sourceSymbol);
  return `${asset(base).altname}${asset(quote).altname}`;
}

function ok(result: unknown): RestReply {
  return { status: 200, body: { error: [], result } };
}

function assets(host: DialectHost): RestReply {
  const entries = currenciesOf(host.symbols).map((code) => {
    const { id, altname } = asset(code);
    return [id, { aclass: 'currency', altname, decimals: 8, display_decimals: 5, status: 'enabled' }];
  });
  return ok(Object.fromEntries(entries));
}

function assetPairs(host: DialectHost): RestReply {
  const entries = host.symbols.map((sourceSymbol) => {
    const { base, quote } = splitSymbol(sourceSymbol);
    const pair = {
      altname: pairId(sourceSymbol),
      wsname: `${asset(base).altname}/${asset(quote).altname}`,
      aclass_base: 'currency',
      base: asset(base).id,
      aclass_quote: 'currency',
      quote: asset(quote).id,
      pair_decimals: 2,
      cost_decimals: 5,
      lot_decimals: 8,
      lot_multiplier: 1,
      leverage_buy: [],
      leverage_sell: [],
      fees: [[0, 0.26]],
      fees_maker: [[0, 0.16]],
      fee_volume_currency: 'ZUSD',
      margin_call: 80,
      margin_stop: 40,
      ordermin: '0.0001',
      costmin: '0.5',
      tick_size: '0.01',
      status: 'online',
    };
    return [pairId(sourceSymbol), pair];
  });
  return ok(Object.fromEntries(entries));
}

function ohlc(query: URLSearchParams, host: DialectHost): RestReply {
  const id = query.get('pair') ?? '';
  const sourceSymbol = host.symbols.find((symbol) => pairId(symbol) === id);
  if (!sourceSymbol) return { status: 200, body: { error: ['EQuery:Unknown asset pair'] } };
  if (query.get('interval') !== '1') return { status: 200, body: { error: ['EGeneral:Invalid arguments'] } };
  // Kraken answers with the candles after `since`.
  const since = numberParam(query, 'since', 0);
  const rows = host
    .candles(sourceSymbol)
    .filter((c) => c.bucketStartSec > since)
    .slice(0, OHLC_ROWS_MAX)
    .map((c) => [
      c.bucketStartSec,
      ...[c.open, c.high, c.low, c.close, c.close].map(String),
      '1.00000000',
      1,
    ]);
  const last = rows.length > 0 ? rows[rows.length - 1]?.[0] : since;
  return ok({ [id]: rows, last });
}

function tickerMessage(sourceSymbol: string, quote: Quote, type: string, last: number | string): string {
  const data = {
    symbol: sourceSymbol,
    bid: last,
    bid_qty: 1,
    ask: last,
    ask_qty: 1,
    last,
    volume: 100,
    vwap: last,
    low: last,
    high: last,
    change: 0,
    change_pct: 0,
    timestamp: isoTime(quote.atMs),
  };
  return JSON.stringify({ channel: 'ticker', type, data: [data] });
}

/** The v2 envelope of an answer to a request. */
function reply(method: string, requestId: unknown, body: Record<string, unknown>): string {
  const now = isoTime(Date.now());
  return JSON.stringify({ method, req_id: requestId, ...body, time_in: now, time_out: now });
}

function subscription(session: Session, message: unknown, method: string, host: DialectHost): void {
  const params = field(message, 'params');
  const requestId = field(message, 'req_id');
  const channel = field(params, 'channel');
  if (channel !== 'ticker') {
    session.send(reply(method, requestId, { error: 'Channel not supported by the fake', success: false }));
    return;
  }
  for (const symbol of stringList(field(params, 'symbol'))) {
    if (!host.symbols.includes(symbol)) {
      session.send(
        reply(method, requestId, { error: `Currency pair not supported ${symbol}`, success: false, symbol }),
      );
      continue;
    }
    const result = { channel, event_trigger: 'trades', snapshot: true, symbol };
    session.send(reply(method, requestId, { result, success: true }));
    if (method === 'subscribe') host.subscribe(session, symbol, channel);
    else host.unsubscribe(session, symbol);
  }
}

export const krakenDialect: Dialect = {
  wsPath: '/v2',
  snapshotOnSubscribe: true,
  heartbeat: { intervalMs: HEARTBEAT_INTERVAL_MS, text: () => JSON.stringify({ channel: 'heartbeat' }) },

  rest(path, query, host) {
    if (path === '/0/public/Time') {
      const now = Date.now();
      return ok({ unixtime: Math.floor(now / 1000), rfc1123: new Date(now).toUTCString() });
    }
    if (path === '/0/public/Assets') return assets(host);
    if (path === '/0/public/AssetPairs') return assetPairs(host);
    if (path === '/0/public/OHLC') return ohlc(query, host);
    return { status: 404, body: { error: ['EGeneral:Unknown method'] } };
  },

  greeting() {
    const data = [{ version: '2.0.10', system: 'online', api_version: 'v2', connection_id: 1 }];
    return JSON.stringify({ channel: 'status', type: 'update', data });
  },

  message(session, message, host) {
    const method = field(message, 'method');
    if (method === 'ping') {
      session.send(reply('pong', field(message, 'req_id'), {}));
      return;
    }
    if (method === 'subscribe' || method === 'unsubscribe') {
      subscription(session, message, method, host);
      return;
    }
    session.send(
      reply(String(method), field(message, 'req_id'), { error: 'Method not supported', success: false }),
    );
  },

  ticker(_session, sourceSymbol, quote, snapshot) {
    return tickerMessage(sourceSymbol, quote, snapshot ? 'snapshot' : 'update', quote.price);
  },

  malformed(_session, sourceSymbol) {
    return tickerMessage(sourceSymbol, { price: 1, atMs: Date.now() }, 'update', 'not-a-price');
  },

  record(sourceSymbol, quote) {
    return tickerMessage(sourceSymbol, quote, 'update', quote.price);
  },

  symbolOf(message, host) {
    const data = field(message, 'data');
    const symbol = field(Array.isArray(data) ? (data[0] as unknown) : undefined, 'symbol');
    return typeof symbol === 'string' && host.symbols.includes(symbol) ? symbol : undefined;
  },
};
