import { Type, type Static } from '@sinclair/typebox';
import { TIMEFRAME_NAMES } from '../market';
import { refusal } from './refusal';

/** Market data over HTTP and WebSocket (spec §3 Pair, Candle, Live price message; §7 Market). */

export const PAIR_SYMBOL_LENGTH_MAX = 32;
/** `GET /api/market/candles` returns this many candles when `limit` is absent (the chart's 200). */
export const CANDLES_LIMIT_DEFAULT = 200;
/** A larger `limit` is refused (400). */
export const CANDLES_LIMIT_MAX = 1000;

/**
 * What a pair symbol may look like: letters, digits, dot, dash or underscore, starting with a
 * letter or digit. Requests may send it in any case; the server upper-cases it.
 */
export const PAIR_SYMBOL_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';

/** A pair symbol sent by a client (query, body): the shape above, any case. */
export const PairSymbolInput = Type.String({
  minLength: 1,
  maxLength: PAIR_SYMBOL_LENGTH_MAX,
  pattern: PAIR_SYMBOL_PATTERN,
  description: 'Pair symbol such as BTCUSDT (any case)',
  ...refusal(undefined, {
    '*': `pair must be a pair symbol such as BTCUSDT: letters, digits, dot, dash or underscore, at most ${PAIR_SYMBOL_LENGTH_MAX} characters`,
  }),
});

export const PairSymbol = Type.String({
  minLength: 1,
  maxLength: PAIR_SYMBOL_LENGTH_MAX,
  description: 'Pair symbol, upper case, e.g. BTCUSDT',
});

/** The price sources a pair can take its ticks from: OTC (built in) and the exchanges' public feeds. */
export const FEED_PROVIDERS = ['OTC', 'BINANCE', 'COINBASE', 'KRAKEN'] as const;
export type FeedProvider = (typeof FEED_PROVIDERS)[number];
/** The providers that are exchanges: they need the exchange's symbol, and can be a reference. */
export const EXCHANGE_PROVIDERS = ['BINANCE', 'COINBASE', 'KRAKEN'] as const;
/** An exchange's own symbol, e.g. BTC/USDT. */
export const SOURCE_SYMBOL_PATTERN = '^[A-Za-z0-9][A-Za-z0-9/._:-]*$';
export const SOURCE_SYMBOL_LENGTH_MAX = 32;
/** Largest disagreement an admin can allow between a pair's two feeds: 10% (1,000 basis points). */
export const SPREAD_BPS_MAX = 1_000;

export const FeedStatus = Type.Union(
  [Type.Literal('live'), Type.Literal('paused'), Type.Literal('diverged')],
  {
    title: 'FeedStatus',
    description:
      "`live`: tradable. `paused`: the feed (or its reference) sent no tick for 5 s. `diverged`: the feed and its reference disagree by more than the pair's spread. Only `live` pairs are tradable.",
  },
);
export type FeedStatus = Static<typeof FeedStatus>;

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const MarketPair = Type.Object(
  {
    symbol: PairSymbol,
    display_name: Type.String({ description: 'Name shown on the pair buttons, e.g. BTC/USDT' }),
    active: Type.Boolean({ description: 'False when an admin disabled the pair: listed, not tradable' }),
    payout_pct: Type.Number({ description: 'Payout percentage of a winning trade, e.g. 80' }),
    provider: Type.String({
      description: 'Price source: OTC (the built-in feed), BINANCE, COINBASE or KRAKEN',
    }),
    provider_symbol: NullableString("The exchange's symbol the feed follows, e.g. BTC/USDT; null for OTC"),
    reference_provider: NullableString('The second feed prices are checked against; null for none'),
    reference_symbol: NullableString("The reference exchange's symbol; null for none"),
    reference_spread_bps: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'Largest allowed disagreement between the feed and its reference, basis points; beyond it the pair pauses and trades entering or expiring then are void',
    }),
    feed_status: FeedStatus,
    payout_up_pct: Type.Number({
      description:
        'Payout offered on UP now: payout_pct, or less while UP is the heavier side of an imbalanced pair (risk skew)',
    }),
    payout_down_pct: Type.Number({ description: 'Payout offered on DOWN now, as payout_up_pct' }),
    real_trading: Type.Union([Type.Literal('open'), Type.Literal('suspended')], {
      description:
        '`suspended` while the loss circuit-breaker holds real placements on the pair (demo trading stays open)',
    }),
  },
  { title: 'MarketPair' },
);
export type MarketPair = Static<typeof MarketPair>;

export const MarketPairList = Type.Array(MarketPair, { title: 'MarketPairList' });
export type MarketPairList = Static<typeof MarketPairList>;

export const MarketTimeframe = Type.Union(
  TIMEFRAME_NAMES.map((name) => Type.Literal(name)),
  { title: 'MarketTimeframe', description: 'Candle length: 1m, 5m, 15m, 30m or 1h' },
);

export const CandlesQuery = Type.Object({
  pair: PairSymbolInput,
  timeframe: MarketTimeframe,
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: CANDLES_LIMIT_MAX,
      default: CANDLES_LIMIT_DEFAULT,
      description: `How many of the most recent candles, 1 to ${CANDLES_LIMIT_MAX}; more is refused (400)`,
    }),
  ),
});
export type CandlesQuery = Static<typeof CandlesQuery>;

export const Candle = Type.Object(
  {
    time: Type.Integer({ description: 'Start of the candle, Unix epoch seconds' }),
    open: Type.Number(),
    high: Type.Number(),
    low: Type.Number(),
    close: Type.Number({ description: 'The last price; still moving while the candle is current' }),
    volume: Type.Integer({
      minimum: 0,
      description: 'Tick volume: the prices observed in the candle (an OTC feed has no traded volume)',
    }),
  },
  { title: 'Candle' },
);
export type Candle = Static<typeof Candle>;

export const CandleList = Type.Array(Candle, { title: 'CandleList', description: 'Oldest first' });
export type CandleList = Static<typeof CandleList>;

/** One WebSocket message per tick on `/api/market/ws?pair=X`. */
export const LivePriceMessage = Type.Object(
  {
    pair: PairSymbol,
    price: Type.Number({ exclusiveMinimum: 0 }),
    ts: Type.Integer({ description: 'When the price was observed, Unix epoch milliseconds' }),
  },
  { title: 'LivePriceMessage' },
);
export type LivePriceMessage = Static<typeof LivePriceMessage>;

/** Close codes of `/api/market/ws` beyond the normal ones. */
export const MARKET_WS_CLOSE = {
  /** Missing, malformed or unknown `pair`: do not reconnect with the same query. */
  POLICY_VIOLATION: 1008,
  /** The server, or this client's address, is at its connection limit: reconnect later. */
  TRY_AGAIN_LATER: 1013,
  /** The server is shutting down: reconnect later. */
  GOING_AWAY: 1001,
} as const;
