import { describe, expect, it } from 'vitest';
import { checkPayoutPct, normaliseNewPair } from './admin.domain';

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

describe('new pair', () => {
  it('upper-cases the symbol and defaults the provider to OTC', () => {
    expect(normaliseNewPair({ symbol: ' solusd ', display_name: ' SOL/USD ' })).toEqual({
      symbol: 'SOLUSD',
      displayName: 'SOL/USD',
      provider: 'OTC',
    });
  });

  it('refuses empty fields and bad symbols', () => {
    expect(() => normaliseNewPair({ symbol: ' ', display_name: 'x' })).toThrow('Please fill all fields');
    expect(() => normaliseNewPair({ symbol: 'A', display_name: 'x' })).toThrow(/Symbol/);
    expect(() => normaliseNewPair({ symbol: 'SOL USD', display_name: 'x' })).toThrow(/Symbol/);
  });
});
