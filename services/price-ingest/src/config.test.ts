import { describe, expect, it } from 'vitest';
import { ConfigError } from '@updown/runtime';
import { DEFAULT_PRICE_FEED_SEED, loadPriceIngestConfig } from './config';

describe('price-ingest configuration', () => {
  it('has working defaults for development', () => {
    const config = loadPriceIngestConfig({});
    expect(config.PRICE_FEED_SEED).toBe(DEFAULT_PRICE_FEED_SEED);
    expect(config.TICK_INTERVAL_MS).toBe(250);
    expect(config.TICK_FLUSH_INTERVAL_MS).toBe(200);
    expect(config.TICK_RETENTION_DAYS).toBe(7);
    expect(config.PAIRS_POLL_INTERVAL_MS).toBe(2_000);
  });

  it('refuses the public default seed in production', () => {
    expect(() => loadPriceIngestConfig({ UPDOWN_ENV: 'production' })).toThrow(/PRICE_FEED_SEED must be set/);
    expect(() =>
      loadPriceIngestConfig({ UPDOWN_ENV: 'production', PRICE_FEED_SEED: String(DEFAULT_PRICE_FEED_SEED) }),
    ).toThrow(ConfigError);
    expect(
      loadPriceIngestConfig({ UPDOWN_ENV: 'production', PRICE_FEED_SEED: '3141592653' }).PRICE_FEED_SEED,
    ).toBe(3141592653);
  });

  it('names every bad variable at once', () => {
    try {
      loadPriceIngestConfig({ TICK_INTERVAL_MS: '5', TICK_BATCH_MAX: '1000', TICK_BUFFER_MAX: '10' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'TICK_INTERVAL_MS must be at least 20, got 5',
        'TICK_BUFFER_MAX must be at least 100, got 10',
      ]);
    }
    expect(() => loadPriceIngestConfig({ TICK_BATCH_MAX: '1000', TICK_BUFFER_MAX: '500' })).toThrow(
      'TICK_BUFFER_MAX must be at least TICK_BATCH_MAX',
    );
  });
});
