import { TIMEFRAME_SECONDS } from '@updown/schemas/market';
import type { Tick } from '../feed/price-provider';

/**
 * Candles from ticks. A candle of timeframe `tf` seconds covers [bucket, bucket + tf) where
 * bucket = floor(atMs / tf) · tf in Unix seconds: open is the first tick's price, close the last,
 * high and low the extremes, volume the number of ticks. A batch's partial candles are merged into the stored ones by the
 * repository's upsert (open kept, high/low widened, close replaced, volume added), so the current candle is live.
 */

export interface CandleRow {
  readonly pair: string;
  readonly timeframeSec: number;
  /** Unix epoch seconds, a multiple of `timeframeSec`. */
  readonly bucketStartSec: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** Tick volume: how many prices were observed in the candle. */
  readonly volume: number;
}

/** The start (Unix seconds) of the `timeframeSec` candle that contains the instant `tsMs`. */
export function bucketStartSec(tsMs: number, timeframeSec: number): number {
  return Math.floor(tsMs / (timeframeSec * 1000)) * timeframeSec;
}

type Building = { -readonly [K in keyof CandleRow]: CandleRow[K] };

/**
 * Above this many (tick, timeframe) pairs a batch finds its candles by a string key; below it, by
 * a scan of the candles made so far. The pipeline's batches at the feed's pace are a few ticks,
 * and a key string made per tick and timeframe was a steady part of an idle process's allocation;
 * a large batch (catching up) would scan too long, and its keys are a small part of its cost.
 */
const SCAN_CANDLES_MAX = 256;

/**
 * One candle per pair, timeframe and bucket touched by the ticks. Ticks may arrive in any order:
 * open and close follow `ts` (for equal `ts`, the later tick in the list closes). The result is
 * ordered by pair, timeframe and bucket, which also gives the database a stable lock order.
 */
export function aggregateCandles(
  ticks: readonly Tick[],
  timeframesSec: readonly number[] = TIMEFRAME_SECONDS,
): CandleRow[] {
  // The rows are built in place; the instants of each one's open and close sit beside them, by
  // index, so that no second object per candle is made to return.
  const built: Building[] = [];
  const openAtMs: number[] = [];
  const closeAtMs: number[] = [];
  const byKey =
    ticks.length * timeframesSec.length > SCAN_CANDLES_MAX ? new Map<string, number>() : undefined;
  for (const tick of ticks) {
    for (const timeframeSec of timeframesSec) {
      const start = bucketStartSec(tick.atMs, timeframeSec);
      const key = byKey && `${tick.pair}\u0000${timeframeSec}\u0000${start}`;
      const at = key === undefined ? scanFor(built, tick.pair, timeframeSec, start) : (byKey!.get(key) ?? -1);
      if (at < 0) {
        if (key !== undefined) byKey!.set(key, built.length);
        built.push({
          pair: tick.pair,
          timeframeSec,
          bucketStartSec: start,
          open: tick.price,
          high: tick.price,
          low: tick.price,
          close: tick.price,
          volume: 1,
        });
        openAtMs.push(tick.atMs);
        closeAtMs.push(tick.atMs);
        continue;
      }
      const candle = built[at]!;
      candle.volume += 1;
      if (tick.price > candle.high) candle.high = tick.price;
      if (tick.price < candle.low) candle.low = tick.price;
      if (tick.atMs < openAtMs[at]!) {
        candle.open = tick.price;
        openAtMs[at] = tick.atMs;
      }
      if (tick.atMs >= closeAtMs[at]!) {
        candle.close = tick.price;
        closeAtMs[at] = tick.atMs;
      }
    }
  }
  return built.sort(
    (a, b) =>
      (a.pair < b.pair ? -1 : a.pair > b.pair ? 1 : 0) ||
      a.timeframeSec - b.timeframeSec ||
      a.bucketStartSec - b.bucketStartSec,
  );
}

/** The index of the candle, or -1. Newest first: consecutive ticks mostly fall in the candles made last. */
function scanFor(built: readonly Building[], pair: string, timeframeSec: number, start: number): number {
  for (let i = built.length - 1; i >= 0; i--) {
    const candle = built[i]!;
    if (candle.bucketStartSec === start && candle.timeframeSec === timeframeSec && candle.pair === pair)
      return i;
  }
  return -1;
}

/** What the stored candle becomes when a later batch's candle for the same bucket is merged in. */
export function mergeCandle(stored: CandleRow, later: CandleRow): CandleRow {
  return {
    ...stored,
    high: Math.max(stored.high, later.high),
    low: Math.min(stored.low, later.low),
    close: later.close,
    volume: stored.volume + later.volume,
  };
}

/**
 * Candles of a longer timeframe from consecutive shorter ones of one pair (oldest first): open of
 * the first, extremes of all, close of the last, volumes summed. Used to derive every timeframe of the backfill
 * from its 1m candles.
 */
export function rollUpCandles(candles: readonly CandleRow[], timeframeSec: number): CandleRow[] {
  const out: CandleRow[] = [];
  let current: { -readonly [K in keyof CandleRow]: CandleRow[K] } | undefined;
  for (const candle of candles) {
    if (candle.timeframeSec > timeframeSec || timeframeSec % candle.timeframeSec !== 0) {
      throw new RangeError(`cannot roll ${candle.timeframeSec}s candles up into ${timeframeSec}s`);
    }
    const start = Math.floor(candle.bucketStartSec / timeframeSec) * timeframeSec;
    if (current && current.bucketStartSec === start && current.pair === candle.pair) {
      current.high = Math.max(current.high, candle.high);
      current.low = Math.min(current.low, candle.low);
      current.close = candle.close;
      current.volume += candle.volume;
      continue;
    }
    if (current) out.push(current);
    current = { ...candle, timeframeSec, bucketStartSec: start };
  }
  if (current) out.push(current);
  return out;
}
