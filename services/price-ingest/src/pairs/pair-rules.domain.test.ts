import { describe, expect, it } from 'vitest';
import { normaliseFeed, normaliseNewPair } from './pair-rules.domain';

describe('new pair', () => {
  it('upper-cases the symbol and defaults the provider to OTC', () => {
    expect(normaliseNewPair({ symbol: ' solusd ', display_name: ' SOL/USD ' })).toEqual({
      symbol: 'SOLUSD',
      displayName: 'SOL/USD',
      provider: 'OTC',
      providerSymbol: null,
      referenceProvider: null,
      referenceSymbol: null,
      referenceSpreadBps: null,
    });
  });

  it('refuses empty fields and bad symbols', () => {
    expect(() => normaliseNewPair({ symbol: ' ', display_name: 'x' })).toThrow('Please fill all fields');
    expect(() => normaliseNewPair({ symbol: 'A', display_name: 'x' })).toThrow(/Symbol/);
    expect(() => normaliseNewPair({ symbol: 'SOL USD', display_name: 'x' })).toThrow(/Symbol/);
  });
});

describe("a pair's feed", () => {
  it('takes an exchange with its symbol and another exchange as reference, upper-casing names', () => {
    expect(
      normaliseFeed({
        provider: 'binance',
        provider_symbol: 'btc/usdt',
        reference_provider: 'Coinbase',
        reference_symbol: 'BTC-USD',
        reference_spread_bps: 50,
      }),
    ).toEqual({
      provider: 'BINANCE',
      providerSymbol: 'BTC/USDT',
      referenceProvider: 'COINBASE',
      referenceSymbol: 'BTC-USD',
      referenceSpreadBps: 50,
    });
  });

  it.each([
    [{ provider: 'NYSE' }, 'Provider must be one of OTC, BINANCE, COINBASE, KRAKEN'],
    [{ provider: 'BINANCE' }, "BINANCE needs the exchange's symbol for the pair, e.g. BTC/USDT"],
    [{ provider: 'OTC', provider_symbol: 'BTC/USDT' }, 'OTC takes no exchange symbol'],
    [
      { provider: 'OTC', reference_symbol: 'BTC/USDT' },
      'A reference symbol or spread needs a reference provider',
    ],
    [
      { provider: 'OTC', reference_provider: 'OTC', reference_symbol: 'X', reference_spread_bps: 5 },
      'The reference must be an exchange: BINANCE, COINBASE, KRAKEN',
    ],
    [
      {
        provider: 'KRAKEN',
        provider_symbol: 'BTC/USD',
        reference_provider: 'kraken',
        reference_symbol: 'X',
        reference_spread_bps: 5,
      },
      "The reference must be another provider than the pair's own feed",
    ],
    [
      { provider: 'OTC', reference_provider: 'BINANCE', reference_spread_bps: 5 },
      "BINANCE needs the exchange's symbol for the pair, e.g. BTC/USDT",
    ],
    [
      { provider: 'OTC', reference_provider: 'BINANCE', reference_symbol: 'BTC/USDT' },
      'The allowed spread must be a whole number of basis points from 1 to 1000',
    ],
    [
      {
        provider: 'OTC',
        reference_provider: 'BINANCE',
        reference_symbol: 'BTC/USDT',
        reference_spread_bps: 1001,
      },
      'The allowed spread must be a whole number of basis points from 1 to 1000',
    ],
    [{ provider: 'BINANCE', provider_symbol: 'BTC USDT' }, /Exchange symbol must look like BTC\/USDT/],
  ])('refuses %j', (input, message) => {
    expect(() => normaliseFeed(input)).toThrow(message);
  });
});
