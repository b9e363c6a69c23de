import { describe, expect, it } from 'vitest';
import { formatCountdown, formatMoney, formatPrice } from './format';

describe('formatCountdown', () => {
  const now = 1_767_614_400_000;
  const expiry = now / 1000;

  it('formats hours, minutes and seconds with two digits each', () => {
    expect(formatCountdown(expiry + 3723, now)).toBe('01h 02m 03s');
    expect(formatCountdown(expiry + 59, now)).toBe('00h 00m 59s');
    expect(formatCountdown(expiry + 3600, now)).toBe('01h 00m 00s');
  });

  it('drops the part of a second already gone', () => {
    expect(formatCountdown(expiry + 60, now + 250)).toBe('00h 00m 59s');
  });

  it('floors at zero once the expiry has passed', () => {
    expect(formatCountdown(expiry, now)).toBe('00h 00m 00s');
    expect(formatCountdown(expiry - 30, now)).toBe('00h 00m 00s');
  });
});

describe('prices and money', () => {
  it('quotes prices with the pair decimals', () => {
    expect(formatPrice('EURUSD', 1.16)).toBe('1.16000');
    expect(formatPrice('USDJPY', 151.2)).toBe('151.200');
    expect(formatPrice('BTCUSDT', 95012.5)).toBe('95012.50');
    expect(formatPrice('XAUUSD', 2400)).toBe('2400.00');
  });

  it('shows money with two decimals', () => {
    expect(formatMoney(10)).toBe('10.00');
    expect(formatMoney(8.5)).toBe('8.50');
  });
});
