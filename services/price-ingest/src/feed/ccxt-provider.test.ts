import { describe, expect, it, vi } from 'vitest';
import { createLogger, ManualClock } from '@updown/runtime';
import { waitFor } from '../testing/helpers';
import { ccxtLoaded, CcxtProvider, type CcxtProviderOptions } from './ccxt-provider';
import type { FeedObserver } from './price-provider';

/**
 * The provider's life before it talks to an exchange: constructing it, starting it, refusing a
 * pair without a source symbol and stopping it must not load ccxt, which only the first real pair
 * (or history request) does. ccxt's import is counted through a pass-through mock.
 */

const imports = vi.hoisted(() => ({ ccxt: 0 }));
vi.mock('ccxt', async (importOriginal) => {
  imports.ccxt += 1;
  return importOriginal();
});

const observer: FeedObserver = { reconnected: vi.fn(), disconnected: vi.fn(), malformed: vi.fn() };

function provider(overrides: Partial<CcxtProviderOptions> = {}) {
  const logger = createLogger({ level: 'silent', name: 'ccxt-provider-test' });
  const options: CcxtProviderOptions = {
    name: 'BINANCE',
    exchange: 'binance',
    clock: new ManualClock(),
    logger,
    observer,
    // Nothing listens on the discard port: a connection attempt fails at once and stays local.
    endpoints: { rest: 'http://127.0.0.1:9', ws: 'ws://127.0.0.1:9/ws' },
    ...overrides,
  };
  return { provider: new CcxtProvider(options), logger };
}

describe('CcxtProvider before any exchange pair', () => {
  it('is constructed, started, refuses a pair without a source symbol and stops without loading ccxt', async () => {
    const { provider: p, logger } = provider();
    const error = vi.spyOn(logger, 'error');
    p.start({ accepting: () => true, push: vi.fn() });
    p.addPair({ symbol: 'EURUSD', sourceSymbol: null, referencePrice: 1, startPrice: 1 });
    p.addPair({ symbol: 'EURUSD', sourceSymbol: '  ', referencePrice: 1, startPrice: 1 });
    expect(p.pairs()).toEqual([]);
    expect(error).toHaveBeenCalledTimes(2);
    await expect(
      p.history({ symbol: 'EURUSD', sourceSymbol: null, referencePrice: 1, startPrice: 1 }, 0, 10),
    ).rejects.toThrow(/no source symbol/);
    p.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ccxtLoaded()).toBe(false);
    expect(imports.ccxt).toBe(0);
  });

  it('refuses backoff and stall settings out of range', () => {
    expect(() => provider({ backoffMsMin: 0 })).toThrow(RangeError);
    expect(() => provider({ backoffMsMin: 100, backoffMsMax: 50 })).toThrow(RangeError);
    expect(() => provider({ stallAfterMs: 0 })).toThrow(RangeError);
  });

  it('loads ccxt once the first pair is added, and reports the unreachable exchange', async () => {
    const { provider: p } = provider();
    p.start({ accepting: () => true, push: vi.fn() });
    p.addPair({ symbol: 'BTCUSDT', sourceSymbol: 'BTC/USDT', referencePrice: 1, startPrice: 1 });
    expect(p.pairs()).toEqual(['BTCUSDT']);
    await waitFor(() => ccxtLoaded(), { what: 'ccxt to load' });
    await waitFor(() => vi.mocked(observer.disconnected).mock.calls.length > 0, {
      what: 'a failed connection',
    });
    expect(vi.mocked(observer.disconnected).mock.calls[0]?.[0]).toBe('BTCUSDT');
    p.stop();
    expect(p.pairs()).toEqual([]);
    expect(imports.ccxt).toBe(1);
  });
});
