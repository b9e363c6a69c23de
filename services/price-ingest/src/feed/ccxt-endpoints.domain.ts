/**
 * Which exchanges the ccxt provider serves, and where their public APIs are. Kept apart from the
 * provider so the mapping onto ccxt's `urls` can be checked without loading ccxt.
 */

export type ExchangeId = 'binance' | 'coinbase' | 'kraken';

/**
 * Where an exchange's public APIs live, for pointing a client at a local stand-in.
 * `rest` is the REST origin (`https://api.binance.com`, `https://api.coinbase.com`,
 * `https://api.kraken.com`); `ws` is the socket ccxt dials for public market data: Binance's spot
 * stream base (`wss://stream.binance.com:9443/ws`, ccxt appends a stream index), Coinbase's
 * Advanced Trade socket (`wss://advanced-trade-ws.coinbase.com`) and Kraken's v2 socket
 * (`wss://ws.kraken.com/v2`).
 */
export interface ExchangeEndpoints {
  readonly rest: string;
  readonly ws: string;
}

/** `market_pairs.provider` values served through ccxt, and the exchange each one streams. */
export const CCXT_EXCHANGES: Record<string, ExchangeId> = {
  BINANCE: 'binance',
  COINBASE: 'coinbase',
  KRAKEN: 'kraken',
};

/** ccxt's `urls.api`: URL strings, nested one or two levels by API family. */
export interface CcxtApiUrls {
  [key: string]: string | CcxtApiUrls;
}

/** Nesting deeper than ccxt's own tables is refused rather than walked. */
const URL_TABLE_DEPTH_MAX = 4;

/**
 * ccxt's `urls.api` for `exchange` with `endpoints` in place of the exchange's hosts. The keys the
 * public ticker stream, the market list and the candles go through are set exactly; every other
 * URL in the table keeps its path but moves to the endpoints' host too, so a client given
 * endpoints can never reach the real exchange, even through a call nobody expected it to make.
 */
export function ccxtApiUrls(
  exchange: ExchangeId,
  api: CcxtApiUrls,
  endpoints: ExchangeEndpoints,
): CcxtApiUrls {
  const rest = withoutTrailingSlash(endpoints.rest);
  const ws = withoutTrailingSlash(endpoints.ws);
  const moved = rehost(api, rest, ws, 0);
  const wsTable = typeof moved['ws'] === 'object' ? moved['ws'] : {};
  switch (exchange) {
    case 'binance':
      return {
        ...moved,
        public: `${rest}/api/v3`,
        private: `${rest}/api/v3`,
        v1: `${rest}/api/v1`,
        ws: { ...wsTable, spot: ws, margin: ws },
      };
    case 'coinbase':
      return { ...moved, rest, ws };
    case 'kraken':
      // The v1 socket is not used for tickers; it sits next to v2 as it does on the real host.
      return {
        ...moved,
        public: rest,
        private: rest,
        ws: { ...wsTable, public: ws.replace(/\/v2$/, ''), publicV2: ws },
      };
  }
}

function rehost(table: CcxtApiUrls, rest: string, ws: string, depth: number): CcxtApiUrls {
  if (depth > URL_TABLE_DEPTH_MAX) throw new RangeError('ccxt url table nested too deeply');
  const out: CcxtApiUrls = {};
  for (const [key, value] of Object.entries(table)) {
    out[key] = typeof value === 'string' ? rehostUrl(value, rest, ws) : rehost(value, rest, ws, depth + 1);
  }
  return out;
}

/** An absolute URL keeps its path and query under the matching endpoint; anything else is kept. */
function rehostUrl(value: string, rest: string, ws: string): string {
  const match = /^(https?|wss?):\/\/[^/?#]+(.*)$/i.exec(value);
  if (!match) return value;
  const scheme = (match[1] ?? '').toLowerCase();
  const base = scheme.startsWith('ws') ? wsOrigin(ws) : rest;
  return `${base}${match[2] ?? ''}`;
}

/** The socket endpoint's scheme and host: other socket paths are appended to it. */
function wsOrigin(ws: string): string {
  const match = /^(wss?:\/\/[^/?#]+)/i.exec(ws);
  return match?.[1] ?? ws;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
