import { describe, expect, it } from 'vitest';
import { clientsPerPair, DELAY_BUCKETS_MS_MAX, DelayHistogram, expectedDeliveries } from './fanout-stats';

describe('DelayHistogram', () => {
  it('gives the nearest-rank percentile in whole milliseconds', () => {
    const h = new DelayHistogram();
    for (let delay = 1; delay <= 100; delay++) h.record(delay);
    expect(h.total).toBe(100);
    expect(h.percentile(0.5)).toBe(50);
    expect(h.percentile(0.99)).toBe(99);
    expect(h.percentile(1)).toBe(100);
    expect(h.percentile(0)).toBe(1);
    expect(h.max()).toBe(100);
  });

  it('rounds to the millisecond, clamps negative delays to 0 and long ones into the last bucket', () => {
    const h = new DelayHistogram();
    h.record(2.4);
    h.record(2.6);
    h.record(-3);
    h.record(DELAY_BUCKETS_MS_MAX + 5_000);
    expect(h.toSparse()).toEqual([
      [0, 1],
      [2, 1],
      [3, 1],
      [DELAY_BUCKETS_MS_MAX, 1],
    ]);
    expect(h.max()).toBe(DELAY_BUCKETS_MS_MAX);
  });

  it('merges histograms sent as sparse counts exactly', () => {
    const a = new DelayHistogram();
    const b = new DelayHistogram();
    [1, 1, 5].forEach((d) => a.record(d));
    [5, 9].forEach((d) => b.record(d));
    const merged = new DelayHistogram();
    merged.addSparse(a.toSparse());
    merged.addSparse(b.toSparse());
    expect(merged.total).toBe(5);
    expect(merged.toSparse()).toEqual([
      [1, 2],
      [5, 2],
      [9, 1],
    ]);
    expect(merged.percentile(0.6)).toBe(5);
  });

  it('has no percentile when empty and refuses a quantile outside 0..1', () => {
    const h = new DelayHistogram();
    expect(h.percentile(0.99)).toBeNaN();
    expect(h.max()).toBeNaN();
    expect(() => h.percentile(1.5)).toThrow(RangeError);
    expect(() => h.percentile(Number.NaN)).toThrow(RangeError);
  });
});

describe('clientsPerPair and expectedDeliveries', () => {
  it('spreads sockets round-robin, the first pairs taking the remainder', () => {
    expect(clientsPerPair(10_000, 6)).toEqual([1_667, 1_667, 1_667, 1_667, 1_666, 1_666]);
    expect(clientsPerPair(4, 6)).toEqual([1, 1, 1, 1, 0, 0]);
    expect(clientsPerPair(10_000, 6).reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(() => clientsPerPair(10, 0)).toThrow(RangeError);
  });

  it('expects every tick of a pair at every socket of that pair', () => {
    expect(expectedDeliveries([80, 79], [3, 2])).toBe(80 * 3 + 79 * 2);
    expect(() => expectedDeliveries([1], [1, 2])).toThrow(RangeError);
  });
});
