import { describe, expect, it } from 'vitest';
import { backoffDelayMs, sourceCandles, tickerPrice } from './ccxt-ticker.domain';

describe('tickerPrice', () => {
  it('takes the last price, then the close, then the middle of bid and ask', () => {
    expect(tickerPrice({ last: 101, close: 100, bid: 99, ask: 103 })).toBe(101);
    expect(tickerPrice({ close: 100, bid: 99, ask: 103 })).toBe(100);
    expect(tickerPrice({ bid: 99, ask: 103 })).toBe(101);
  });

  it('finds no price in a ticker without a finite positive one', () => {
    expect(tickerPrice({})).toBeUndefined();
    expect(tickerPrice({ last: Number.NaN, close: 0, bid: -1, ask: 2 })).toBeUndefined();
    expect(tickerPrice({ last: '101' as unknown as number })).toBeUndefined();
    expect(tickerPrice({ bid: 103, ask: 99 })).toBeUndefined();
    expect(tickerPrice({ last: Number.POSITIVE_INFINITY })).toBeUndefined();
    expect(tickerPrice(undefined)).toBeUndefined();
  });
});

describe('sourceCandles', () => {
  const row = (minute: number, o: number, h: number, l: number, c: number) => [
    minute * 60_000,
    o,
    h,
    l,
    c,
    1,
  ];

  it('maps rows to candles in seconds, oldest first, a repeated minute keeping its last row', () => {
    const { candles, dropped } = sourceCandles(
      [row(3, 2, 3, 1, 2), row(2, 1, 2, 1, 1), row(3, 2, 4, 1, 3)],
      10,
    );
    expect(dropped).toBe(0);
    expect(candles).toEqual([
      { bucketStartSec: 120, open: 1, high: 2, low: 1, close: 1 },
      { bucketStartSec: 180, open: 2, high: 4, low: 1, close: 3 },
    ]);
  });

  it('drops rows that are not candles and keeps at most the limit', () => {
    const rows = [
      row(1, 1, 2, 1, 1),
      [60_001, 1, 2, 1, 1],
      row(2, 1, 0.5, 1, 1),
      row(3, 1, 2, 1.5, 1),
      [240_000, 1, 2, 1],
      row(5, 1, 2, 1, null as unknown as number),
      'row',
      row(6, 1, 2, 1, 1),
      row(7, 1, 2, 1, 1),
    ];
    const { candles, dropped } = sourceCandles(rows, 2);
    expect(dropped).toBe(6);
    expect(candles.map((c) => c.bucketStartSec)).toEqual([60, 360]);
    expect(sourceCandles('not rows', 5)).toEqual({ candles: [], dropped: 0 });
  });
});

describe('backoffDelayMs', () => {
  it('doubles from the minimum, adds up to half again at random, and stops at the maximum', () => {
    expect(backoffDelayMs(0, 500, 30_000, 0)).toBe(500);
    expect(backoffDelayMs(0, 500, 30_000, 0.999)).toBeLessThanOrEqual(750);
    expect(backoffDelayMs(3, 500, 30_000, 0)).toBe(4_000);
    expect(backoffDelayMs(3, 500, 30_000, 0.5)).toBe(5_000);
    expect(backoffDelayMs(10, 500, 30_000, 0.9)).toBe(30_000);
    expect(backoffDelayMs(10_000, 500, 30_000, 0)).toBe(30_000);
  });
});
