/**
 * The port every price source implements. A provider ticks a changing set of pairs and hands
 * each round of ticks to a sink; price-ingest persists, aggregates and publishes them. `OTC` (the
 * built-in random walk) is the only provider so far; a market-data vendor would be another.
 */

export interface Tick {
  readonly pair: string;
  readonly price: number;
  /** Unix epoch milliseconds, from the service's clock. */
  readonly atMs: number;
}

export interface FeedPair {
  readonly symbol: string;
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
}
