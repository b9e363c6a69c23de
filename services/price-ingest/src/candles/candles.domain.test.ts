import { describe, expect, it } from 'vitest';
import type { Tick } from '../feed/price-provider';
import {
  BACKFILL_KEPT_PER_TIMEFRAME,
  BACKFILL_MINUTES,
  backfillCandles,
  backfillMinuteCandles,
} from './backfill.domain';
import {
  aggregateCandles,
  bucketStartSec,
  mergeCandle,
  rollUpCandles,
  type CandleRow,
} from './candles.domain';

/** Midnight UTC: a boundary of every timeframe. */
const T0 = Date.UTC(2026, 0, 1) / 1000;
const at = (offsetSec: number, price: number, pair = 'EURUSD'): Tick => ({
  pair,
  price,
  atMs: (T0 + offsetSec) * 1000,
});

/** A sequence that crosses the edge of every timeframe, including ticks a millisecond before an edge. */
const TICKS: Tick[] = [
  at(10, 100),
  at(50, 105),
  { pair: 'EURUSD', price: 98, atMs: (T0 + 60) * 1000 - 1 },
  at(60, 101),
  { pair: 'EURUSD', price: 110, atMs: (T0 + 300) * 1000 - 1 },
  at(300, 95),
  at(899, 97),
  at(900, 120),
  at(1799, 90),
  at(1800, 99),
  at(3599, 130),
  at(3600, 80),
];

type Ohlc = [bucketOffsetSec: number, open: number, high: number, low: number, close: number];

const EXPECTED: Record<number, Ohlc[]> = {
  60: [
    [0, 100, 105, 98, 98],
    [60, 101, 101, 101, 101],
    [240, 110, 110, 110, 110],
    [300, 95, 95, 95, 95],
    [840, 97, 97, 97, 97],
    [900, 120, 120, 120, 120],
    [1740, 90, 90, 90, 90],
    [1800, 99, 99, 99, 99],
    [3540, 130, 130, 130, 130],
    [3600, 80, 80, 80, 80],
  ],
  300: [
    [0, 100, 110, 98, 110],
    [300, 95, 95, 95, 95],
    [600, 97, 97, 97, 97],
    [900, 120, 120, 120, 120],
    [1500, 90, 90, 90, 90],
    [1800, 99, 99, 99, 99],
    [3300, 130, 130, 130, 130],
    [3600, 80, 80, 80, 80],
  ],
  900: [
    [0, 100, 110, 95, 97],
    [900, 120, 120, 90, 90],
    [1800, 99, 99, 99, 99],
    [2700, 130, 130, 130, 130],
    [3600, 80, 80, 80, 80],
  ],
  1800: [
    [0, 100, 120, 90, 90],
    [1800, 99, 130, 99, 130],
    [3600, 80, 80, 80, 80],
  ],
  3600: [
    [0, 100, 130, 90, 130],
    [3600, 80, 80, 80, 80],
  ],
};

function ohlc(candles: readonly CandleRow[], timeframeSec: number): Ohlc[] {
  return candles
    .filter((c) => c.timeframeSec === timeframeSec)
    .map((c) => [c.bucketStartSec - T0, c.open, c.high, c.low, c.close]);
}

describe('candle aggregation', () => {
  it('floors a timestamp to its bucket in Unix seconds', () => {
    expect(bucketStartSec((T0 + 59) * 1000 + 999, 60)).toBe(T0);
    expect(bucketStartSec((T0 + 60) * 1000, 60)).toBe(T0 + 60);
    expect(bucketStartSec((T0 + 3599) * 1000, 3600)).toBe(T0);
  });

  it.each(Object.keys(EXPECTED).map(Number))('builds the hand-computed %is candles', (timeframeSec) => {
    expect(ohlc(aggregateCandles(TICKS), timeframeSec)).toEqual(EXPECTED[timeframeSec]);
  });

  it('counts the ticks of each candle as its volume, and a merge adds the volumes', () => {
    const minutes = aggregateCandles(TICKS, [60]);
    const expected = new Map<number, number>();
    for (const tick of TICKS) {
      const bucket = bucketStartSec(tick.atMs, 60);
      expected.set(bucket, (expected.get(bucket) ?? 0) + 1);
    }
    expect(minutes.map((c) => [c.bucketStartSec, c.volume])).toEqual([...expected.entries()]);
    expect(aggregateCandles(TICKS, [3600]).reduce((sum, c) => sum + c.volume, 0)).toBe(TICKS.length);
    const [first] = aggregateCandles(TICKS.slice(0, 2), [60]);
    const [second] = aggregateCandles(TICKS.slice(2, 3), [60]);
    expect(mergeCandle(first!, second!).volume).toBe(3);
  });

  it('follows timestamps, not arrival order', () => {
    const shuffled = [...TICKS].reverse();
    expect(aggregateCandles(shuffled)).toEqual(aggregateCandles(TICKS));
  });

  it('keeps pairs apart and orders rows by pair, timeframe and bucket', () => {
    const candles = aggregateCandles([at(0, 2, 'GBPUSD'), at(1, 1, 'EURUSD'), at(61, 3, 'EURUSD')], [60]);
    expect(candles.map((c) => [c.pair, c.bucketStartSec - T0, c.close])).toEqual([
      ['EURUSD', 0, 1],
      ['EURUSD', 60, 3],
      ['GBPUSD', 0, 2],
    ]);
  });

  it.each([300, 900, 1800, 3600])(
    'rolls 1m candles up into the same %is candles as the ticks give',
    (timeframeSec) => {
      const minutes = aggregateCandles(TICKS, [60]);
      expect(rollUpCandles(minutes, timeframeSec)).toEqual(aggregateCandles(TICKS, [timeframeSec]));
    },
  );

  it('merges a later batch into a stored candle as the database upsert does', () => {
    const first = aggregateCandles(TICKS.slice(0, 2), [60])[0]!;
    const second = aggregateCandles(TICKS.slice(2, 3), [60])[0]!;
    expect(mergeCandle(first, second)).toEqual(aggregateCandles(TICKS.slice(0, 3), [60])[0]);
  });
});

describe('history backfill', () => {
  const request = { symbol: 'BTCUSDT', referencePrice: 95_000, seed: 1, endBucketStartSec: T0 };

  it('fills whole minutes up to the live one, each opening at the previous close', () => {
    const candles = backfillMinuteCandles(request);
    expect(candles).toHaveLength(BACKFILL_MINUTES);
    expect(candles[0]!.bucketStartSec).toBe(T0 - BACKFILL_MINUTES * 60);
    expect(candles.at(-1)!.bucketStartSec).toBe(T0 - 60);
    const broken = candles.filter((candle, i) => {
      const previous = candles[i - 1];
      const continuous =
        !previous ||
        (candle.bucketStartSec - previous.bucketStartSec === 60 && candle.open === previous.close);
      const ranged =
        candle.high >= Math.max(candle.open, candle.close) &&
        candle.low <= Math.min(candle.open, candle.close);
      return !continuous || !ranged;
    });
    expect(broken).toEqual([]);
    expect(new Set(candles.map((candle) => candle.volume))).toEqual(new Set([240]));
    expect(
      backfillMinuteCandles({ ...request, minutes: 2, ticksPerMinute: 60 }).map((c) => c.volume),
    ).toEqual([60, 60]);
  });

  it('gives at least 200 candles of every timeframe, each rolled up from the minutes', () => {
    const endBucketStartSec = T0 + 17 * 60;
    const candles = backfillCandles({ ...request, endBucketStartSec });
    const minutes = backfillMinuteCandles({ ...request, endBucketStartSec }).map((m) => ({
      pair: 'BTCUSDT',
      timeframeSec: 60,
      ...m,
    }));
    for (const timeframeSec of [60, 300, 900, 1800, 3600]) {
      const ofTimeframe = candles.filter((c) => c.timeframeSec === timeframeSec);
      expect(ofTimeframe.length, `${timeframeSec}s`).toBeGreaterThanOrEqual(200);
      expect(ofTimeframe.length, `${timeframeSec}s`).toBeLessThanOrEqual(BACKFILL_KEPT_PER_TIMEFRAME);
      expect(ofTimeframe.every((c) => c.bucketStartSec % timeframeSec === 0 && c.pair === 'BTCUSDT')).toBe(
        true,
      );
      expect(ofTimeframe).toEqual(rollUpCandles(minutes, timeframeSec).slice(-BACKFILL_KEPT_PER_TIMEFRAME));
      expect(ofTimeframe.at(-1)!.close).toBe(minutes.at(-1)!.close);
    }
  });

  it('is deterministic for a seed', () => {
    const small = { ...request, minutes: 100 };
    expect(backfillMinuteCandles(small)).toEqual(backfillMinuteCandles(small));
    expect(backfillMinuteCandles(small)).not.toEqual(backfillMinuteCandles({ ...small, seed: 2 }));
  });
});

describe('candle aggregation of small and large batches', () => {
  /** Ticks of three pairs over a few minutes, in a scrambled but repeatable order. */
  function scrambled(count: number): Tick[] {
    const pairs = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];
    const ticks = Array.from({ length: count }, (_, i) => ({
      pair: pairs[i % pairs.length]!,
      price: 100 + ((i * 37) % 23),
      atMs: (T0 + ((i * 7919) % 600)) * 1000,
    }));
    return ticks.map((_, i) => ticks[(i * 101) % count]!);
  }

  /** The same candles computed the plain way, one keyed map: what both lookups must agree with. */
  function reference(ticks: readonly Tick[], timeframesSec: readonly number[]): CandleRow[] {
    const rows = new Map<string, CandleRow & { openAtMs: number; closeAtMs: number }>();
    for (const tick of ticks) {
      for (const timeframeSec of timeframesSec) {
        const start = bucketStartSec(tick.atMs, timeframeSec);
        const key = `${tick.pair}/${timeframeSec}/${start}`;
        const row = rows.get(key);
        const { price, atMs } = tick;
        if (!row) {
          rows.set(key, {
            ...{ pair: tick.pair, timeframeSec, bucketStartSec: start },
            ...{ open: price, high: price, low: price, close: price, volume: 1 },
            ...{ openAtMs: atMs, closeAtMs: atMs },
          });
          continue;
        }
        const open = atMs < row.openAtMs;
        const close = atMs >= row.closeAtMs;
        rows.set(key, {
          ...row,
          high: Math.max(row.high, price),
          low: Math.min(row.low, price),
          volume: row.volume + 1,
          ...(open ? { open: price, openAtMs: atMs } : {}),
          ...(close ? { close: price, closeAtMs: atMs } : {}),
        });
      }
    }
    return [...rows.values()]
      .map(({ openAtMs: _o, closeAtMs: _c, ...row }) => row)
      .sort(
        (a, b) =>
          a.pair.localeCompare(b.pair) ||
          a.timeframeSec - b.timeframeSec ||
          a.bucketStartSec - b.bucketStartSec,
      );
  }

  it.each([7, 40, 600])('agrees with a plain keyed aggregation for %i scrambled ticks', (count) => {
    const ticks = scrambled(count);
    const timeframes = [60, 300, 3600];
    expect(aggregateCandles(ticks, timeframes)).toEqual(reference(ticks, timeframes));
  });
});
