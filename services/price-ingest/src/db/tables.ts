import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '@updown/runtime';

/**
 * Market data: the tradable pairs, every tick and the candles built from them. Their migrations in
 * `./migrations` are the source of truth; these interfaces mirror them for kysely and add them to
 * the runtime's `Database` (declaration merging), so every package's queries see them.
 */

export interface MarketPairsTable {
  symbol: string;
  display_name: string;
  active: Generated<boolean>;
  /** `numeric`, parsed to a JavaScript number by `pool.ts`. */
  payout_pct: ColumnType<number, number | undefined, number>;
  provider: Generated<string>;
  reference_price: number | null;
  /** The exchange's symbol the feed follows (e.g. `BTC/USDT`); null for OTC. */
  provider_symbol: string | null;
  reference_provider: string | null;
  reference_symbol: string | null;
  reference_spread_bps: number | null;
  sort_order: Generated<number>;
  created_at: Timestamp;
}

export interface MarketTicksTable {
  id: Generated<number>;
  pair: string;
  /** Unix epoch milliseconds. */
  at_ms: number;
  price: number;
  /** The tick's place in its pair's hash chain; null for ticks stored before the chain existed. */
  seq: number | null;
  prev_hash: Buffer | null;
  hash: Buffer | null;
  /** Named by a receipt: retention keeps it. */
  pinned: Generated<boolean>;
}

/** A signed checkpoint of a pair's chain (docs/receipts.md). */
export interface TickCheckpointsTable {
  pair: string;
  from_seq: number;
  to_seq: number;
  from_ms: number;
  to_ms: number;
  start_hash: Buffer;
  head_hash: Buffer;
  signed_at_ms: number;
  key_id: string;
  signature: Buffer;
}

export interface MarketCandlesTable {
  pair: string;
  timeframe_sec: number;
  /** Unix epoch seconds, a multiple of `timeframe_sec`. */
  bucket_start_sec: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Tick volume: prices observed in the candle. */
  volume: Generated<number>;
}

/** What a pair's reference feed said; not chained: the receipt that uses one carries it signed. */
export interface MarketReferenceTicksTable {
  pair: string;
  at_ms: number;
  price: number;
  provider: string;
}

/** One row per pair and feed role: price-ingest's view of the feed, rewritten every second. */
export interface MarketFeedStatusTable {
  pair: string;
  role: 'primary' | 'reference';
  provider: string;
  source_symbol: string | null;
  last_tick_at_ms: number | null;
  ticks_per_sec: Generated<number>;
  reconnects: Generated<number>;
  gaps: Generated<number>;
  malformed: Generated<number>;
  last_error: string | null;
  /** On the primary row: how far the two feeds are apart now, basis points. */
  divergence_bps: number | null;
  updated_at_ms: number;
}

declare module '@updown/runtime' {
  interface Database {
    market_pairs: MarketPairsTable;
    market_ticks: MarketTicksTable;
    market_candles: MarketCandlesTable;
    tick_checkpoints: TickCheckpointsTable;
    market_reference_ticks: MarketReferenceTicksTable;
    market_feed_status: MarketFeedStatusTable;
  }
}
