import { TIMEFRAME_SECONDS } from '@updown/schemas/market';
import { deriveSeed, Prng } from '../feed/prng.domain';
import { OuWalk, priceQuoter, walkParams } from '../feed/random-walk.domain';
import { rollUpCandles, type CandleRow } from './candles.domain';

/**
 * Synthetic history for a pair that has none, so every chart timeframe opens with a full screen
 * of candles (the console asks for 200). It runs the same walk as the live feed, sampled every
 * few seconds instead of every tick, and summarises each minute as a 1m candle; the longer
 * timeframes are rolled up from those, so every timeframe tells the same story.
 */

/** 201 hours of minutes: at least 200 candles of every timeframe up to 1h, whatever the minute it ends at. */
export const BACKFILL_MINUTES = 201 * 60;
/** Walk samples per minute (one every 3 s): enough for believable highs and lows, cheap to generate. */
export const BACKFILL_SAMPLES_PER_MINUTE = 20;

export interface MinuteCandle {
  /** Unix epoch seconds, a multiple of 60. */
  readonly bucketStartSec: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

/** The live feed's default rate (a tick every 250 ms), used as the history's tick volume. */
export const BACKFILL_TICKS_PER_MINUTE = 240;

export interface BackfillRequest {
  readonly symbol: string;
  readonly referencePrice: number;
  readonly seed: number;
  /** The first minute not to fill (Unix seconds, a multiple of 60): the live feed's minute. */
  readonly endBucketStartSec: number;
  readonly minutes?: number;
  readonly samplesPerMinute?: number;
  /**
   * The tick volume each synthetic minute carries: the live feed's rate, so history and live
   * candles are comparable (a constant-rate feed has a constant tick volume).
   */
  readonly ticksPerMinute?: number;
}

/**
 * `minutes` consecutive 1m candles ending just before `endBucketStartSec`, oldest first. Each opens at
 * the previous close, as a continuous market does; prices are quoted to the pair's decimals.
 */
export function backfillMinuteCandles(request: BackfillRequest): MinuteCandle[] {
  const minutes = request.minutes ?? BACKFILL_MINUTES;
  const samples = request.samplesPerMinute ?? BACKFILL_SAMPLES_PER_MINUTE;
  const volume = request.ticksPerMinute ?? BACKFILL_TICKS_PER_MINUTE;
  if (request.endBucketStartSec % 60 !== 0) throw new RangeError('endBucketStartSec must be a whole minute');
  if (!Number.isInteger(minutes) || minutes < 0 || !Number.isInteger(samples) || samples < 1) {
    throw new RangeError('minutes and samplesPerMinute must be positive integers');
  }
  const seed = deriveSeed(request.seed, request.symbol, 'backfill', request.endBucketStartSec);
  const walk = new OuWalk(
    walkParams(request.symbol, request.referencePrice),
    request.referencePrice,
    new Prng(seed),
  );
  const dtSec = 60 / samples;
  const quote = priceQuoter(request.symbol);

  // Extremes are tracked on raw prices and quoted once per candle: rounding is monotonic, so the
  // rounded maximum is the maximum of the rounded prices.
  const candles: MinuteCandle[] = [];
  let openRaw = walk.price;
  const firstBucket = request.endBucketStartSec - minutes * 60;
  for (let minute = 0; minute < minutes; minute++) {
    let high = openRaw;
    let low = openRaw;
    let close = openRaw;
    for (let sample = 0; sample < samples; sample++) {
      close = walk.step(dtSec);
      if (close > high) high = close;
      if (close < low) low = close;
    }
    candles.push({
      bucketStartSec: firstBucket + minute * 60,
      open: quote(openRaw),
      high: quote(high),
      low: quote(low),
      close: quote(close),
      volume,
    });
    openRaw = close;
  }
  return candles;
}

/**
 * The most recent candles of each timeframe kept from a backfill: as many as the candles API can
 * return for one request (`limit` is capped at 1000). Older ones could never be shown, and not
 * writing them makes the first start several times faster.
 */
export const BACKFILL_KEPT_PER_TIMEFRAME = 1000;

/** The backfill's candles of every timeframe, the longer ones rolled up from the 1m walk, ready to insert. */
export function backfillCandles(
  request: BackfillRequest,
  keptPerTimeframe = BACKFILL_KEPT_PER_TIMEFRAME,
): CandleRow[] {
  const minutes: CandleRow[] = backfillMinuteCandles(request).map((m) => ({
    pair: request.symbol,
    timeframeSec: 60,
    ...m,
  }));
  return TIMEFRAME_SECONDS.flatMap((tf) =>
    (tf === 60 ? minutes : rollUpCandles(minutes, tf)).slice(-keptPerTimeframe),
  );
}
