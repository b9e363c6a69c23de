import { describe, expect, it } from 'vitest';
import { centsToDollars, dollarsToCents } from './money';

describe('dollarsToCents', () => {
  it.each([
    [10, 1_000],
    [0.29, 29],
    [1.1, 110],
    [4999.99, 499_999],
    [-2.5, -250],
    [0, 0],
  ])('%s dollars is %s cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it.each([10.005, 0.001, Number.NaN, Number.POSITIVE_INFINITY, 1e12])('refuses %s', (dollars) => {
    expect(dollarsToCents(dollars)).toBeUndefined();
  });

  it('round-trips every cent amount up to $10,000', () => {
    for (let cents = 0; cents <= 1_000_000; cents += 7)
      expect(dollarsToCents(centsToDollars(cents))).toBe(cents);
  });
});
