import { describe, expect, it } from 'vitest';
import { checkPayoutPct } from './settings.domain';

describe('payout percent', () => {
  it('accepts 1 to 100 with up to 2 decimals', () => {
    expect(checkPayoutPct(1)).toBe(1);
    expect(checkPayoutPct(100)).toBe(100);
    expect(checkPayoutPct(85.5)).toBe(85.5);
  });

  it.each([0, 0.99, 100.01, 101, -5, Number.NaN, 80.123])('refuses %s', (value) => {
    expect(() => checkPayoutPct(value)).toThrow(/Payout percentage/);
  });
});
