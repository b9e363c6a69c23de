import { describe, expect, it } from 'vitest';
import { percentile } from './stats';

describe('percentile', () => {
  it('takes the nearest rank of sorted values', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([3, 7, 9], 50)).toBe(7);
    expect(percentile([3, 7, 9], 99)).toBe(9);
  });

  it('is the only value of one, and NaN of none', () => {
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
