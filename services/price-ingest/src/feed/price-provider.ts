/**
 * The port every price source implements. A provider ticks a changing set of pairs and hands
 * each round of ticks to a sink; price-ingest persists, aggregates and publishes them. `OTC` (the
 * built-in random walk) needs nothing outside the process; the exchange providers (`BINANCE`,
 * `COINBASE`, `KRAKEN`, through ccxt) stream the exchanges' public tickers. Adding a source is one
 * class implementing this interface and one line in `providers.ts`.
 */

export interface Tick {
  readonly pair: string;
  readonly price: number;
  /** Unix epoch milliseconds, from the service's clock. */
  readonly atMs: number;
}

export interface FeedPair {
  /** The platform's symbol, e.g. `BTCUSDT`: the ticks carry it. */
  readonly symbol: string;
  /** The source's own symbol, e.g. `BTC/USDT` on an exchange; null for OTC. */
  readonly sourceSymbol: string | null;
  /** The price the pair's feed is anchored to (OTC reverts towards it). */
  readonly referencePrice: number;
  /** Where the feed starts: the last known price, so a restart continues the chart. */
  readonly startPrice: number;
}

export interface TickSink {
  /** False while the sink is full: the provider skips the round instead of producing ticks nobody can keep. */
  accepting(): boolean;
  push(ticks: readonly Tick[]): void;
}

/** What a provider reports besides ticks, for the feed's health (reconnects, errors, bad messages). */
export interface FeedObserver {
  /** A pair's stream is open again after it dropped or failed: one reconnect. */
  reconnected(pair: string): void;
  /** A pair's stream dropped, failed to open or stalled; the provider retries with backoff. */
  disconnected(pair: string, error: unknown): void;
  /** A message the provider could not read: counted and skipped, never a crash. */
  malformed(pair: string | null, error: unknown): void;
}

/** A one-minute candle from a source's history (exchange OHLCV). */
export interface SourceCandle {
  /** Unix epoch seconds, a multiple of 60. */
  readonly bucketStartSec: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

export interface PriceProvider {
  /** The value of `market_pairs.provider` this source serves. */
  readonly name: string;
  start(sink: TickSink): void;
  /** Stops producing; no tick reaches the sink after this returns. */
  stop(): void;
  /** Starts ticking a pair (or re-anchors it if already ticking). */
  addPair(pair: FeedPair): void;
  removePair(symbol: string): void;
  pairs(): readonly string[];
  /**
   * Up to `limit` one-minute candles from `sinceMs`, oldest first, from the source's own history;
   * absent for a source with none (OTC backfills synthetic history instead).
   */
  history?(pair: FeedPair, sinceMs: number, limit: number): Promise<SourceCandle[]>;
}
