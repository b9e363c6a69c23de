import { describe, expect, it } from 'vitest';
import { formatPrice, isForexPair, isTimeframe, priceDecimals, roundPrice, TIMEFRAMES } from './market';

describe('price decimals', () => {
  it.each([
    ['EURUSD', 5],
    ['GBPUSD', 5],
    ['USDJPY', 3],
    ['EURJPY', 3],
    ['AUDCAD', 5],
    ['usdjpy', 3],
    ['BTCUSDT', 2],
    ['XAUUSD', 2],
    ['XAGUSD', 2],
    ['ETHUSD', 2],
    ['BTCUSD', 2],
    ['US30', 2],
    ['EURUSDX', 2],
  ])('%s has %i decimals', (symbol, decimals) => {
    expect(priceDecimals(symbol)).toBe(decimals);
  });

  it('treats a pair as forex only when both halves are fiat currencies', () => {
    expect(isForexPair('EURUSD')).toBe(true);
    expect(isForexPair('XAUUSD')).toBe(false);
    expect(isForexPair('ETHUSD')).toBe(false);
    expect(isForexPair('USDXXX')).toBe(false);
  });

  it('rounds and formats prices to those decimals', () => {
    expect(roundPrice('EURUSD', 1.1234567)).toBe(1.12346);
    expect(roundPrice('USDJPY', 155.12345)).toBe(155.123);
    expect(roundPrice('BTCUSDT', 95000.125)).toBe(95000.13);
    expect(roundPrice('XAUUSD', 4050.004)).toBe(4050);
    expect(formatPrice('EURUSD', 1.16)).toBe('1.16000');
    expect(formatPrice('BTCUSDT', 95000)).toBe('95000.00');
  });
});

describe('timeframes', () => {
  it('are the chart tabs with their seconds', () => {
    expect(TIMEFRAMES).toEqual({ '1m': 60, '5m': 300, '15m': 900, '30m': 1800, '1h': 3600 });
    expect(isTimeframe('5m')).toBe(true);
    expect(isTimeframe('2m')).toBe(false);
    expect(isTimeframe('toString')).toBe(false);
  });
});
