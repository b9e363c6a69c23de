import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createMetricsRegistry, ManualClock } from '@updown/runtime';
import { createTestDatabase, memoryBus, type TestDatabase } from '@updown/runtime/testing';
import { createEvent } from '@updown/schemas';
import { PRICE_STALE_AFTER_MS, startLatestPrices, type LatestPrices } from './latest-prices';
import { waitFor } from './testing/helpers';

const logger = createLogger({ level: 'silent', name: 'latest-prices-test' });
const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);
let database: TestDatabase;
let clock: ManualClock;
let bus: ReturnType<typeof memoryBus>;
let latest: LatestPrices;

function publishTick(pair: string, price: number, atMs: number) {
  return bus.publish(
    'market.ticks.v1',
    pair,
    createEvent('market.ticks.v1', { pair, price, atMs }, { producer: 'test' }),
  );
}

beforeAll(async () => {
  database = await createTestDatabase({ max: 3 });
  await database.db
    .insertInto('market_ticks')
    .values([
      { pair: 'EURUSD', at_ms: NOW - 60_000, price: 1.15 },
      { pair: 'EURUSD', at_ms: NOW - 30_000, price: 1.16123 },
      { pair: 'BTCUSDT', at_ms: NOW - 10_000, price: 95_001.5 },
      { pair: 'GONEUSD', at_ms: NOW - 1_000, price: 3 }, // not a listed pair: not warmed
    ])
    .execute();
  clock = new ManualClock(NOW);
  bus = memoryBus(createMetricsRegistry(), logger);
  latest = await startLatestPrices({ db: database.db, bus, clock, logger });
});

afterAll(async () => {
  await latest?.stop();
  await bus?.close();
  await database?.drop();
});

describe('latest prices', () => {
  it('warms from the newest stored tick of each listed pair', () => {
    expect(latest.get('EURUSD')).toEqual({ price: 1.16123, atMs: NOW - 30_000, ageMs: 30_000 });
    expect(latest.get('BTCUSDT')).toEqual({ price: 95_001.5, atMs: NOW - 10_000, ageMs: 10_000 });
    expect(latest.get('USDJPY')).toBeUndefined();
    expect(latest.get('GONEUSD')).toBeUndefined();
    expect(latest.isFresh('EURUSD')).toBe(false);
  });

  it('follows ticks from the bus and computes the age with the clock', async () => {
    await publishTick('USDJPY', 155.123, NOW - 500);
    await publishTick('EURUSD', 1.16201, NOW);
    await waitFor(() => latest.get('EURUSD')?.price === 1.16201 && latest.get('USDJPY') !== undefined);
    expect(latest.get('USDJPY')).toEqual({ price: 155.123, atMs: NOW - 500, ageMs: 500 });
    expect(latest.isFresh('EURUSD')).toBe(true);

    clock.advance(PRICE_STALE_AFTER_MS);
    expect(latest.get('EURUSD')).toEqual({ price: 1.16201, atMs: NOW, ageMs: PRICE_STALE_AFTER_MS });
    expect(latest.isFresh('EURUSD')).toBe(true);
    clock.advance(1);
    expect(latest.isFresh('EURUSD')).toBe(false);
  });

  it('never moves a pair back in time when an older tick arrives late', async () => {
    await publishTick('EURUSD', 1.1, NOW - 1_000);
    await publishTick('GBPUSD', 1.31, NOW);
    await waitFor(() => latest.get('GBPUSD') !== undefined);
    expect(latest.get('EURUSD')?.price).toBe(1.16201);
  });
});
