import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  createMetricsRegistry,
  generateSigningKey,
  systemClock,
  type Registry,
} from '@updown/runtime';
import { createTestDatabase, memoryBus, type TestDatabase } from '@updown/runtime/testing';
import type { MarketTickPayload } from '@updown/schemas';
import type { PriceIngestServiceConfig } from './config';
import { listPairFeeds } from './feed-health/feed-status.repository';
import { startPriceIngest, type RunningPriceIngest } from './price-ingest.service';
import { readPair, setPairFeed } from './queries/pairs.repository';
import { startFakeExchange, type FakeExchange } from './testing/fake-exchanges';
import { metricValue, waitFor } from './testing/helpers';

/**
 * price-ingest on real exchange feeds, against local fake exchanges that speak Binance's and
 * Coinbase's public formats (no test reaches the internet): a pair switched from OTC to Binance
 * with Coinbase as reference, without a restart; its ticks, candles and reference ticks stored;
 * the reference's word on every published tick; a one-sided jump (diverged), a stall (paused), a
 * malformed message (counted, skipped) and the switch back to OTC.
 */

const PAIR = 'BTCUSDT';
const MINUTE_MS = 60_000;
const logger = createLogger({ level: 'silent', name: 'exchange-feeds-test' });
let database: TestDatabase;
let registry: Registry;
let bus: ReturnType<typeof memoryBus>;
let service: RunningPriceIngest;
let binance: FakeExchange;
let coinbase: FakeExchange;
let pump: ReturnType<typeof setInterval> | undefined;
const prices = { binance: 100_000, coinbase: 100_010 };
const published: MarketTickPayload[] = [];
let historyStartSec = 0;

beforeAll(async () => {
  [database, binance, coinbase] = await Promise.all([
    createTestDatabase({ max: 5 }),
    startFakeExchange('binance', { symbols: ['BTC/USDT'] }),
    startFakeExchange('coinbase', { symbols: ['BTC/USDT'] }),
  ]);
  // An hour of the exchange's history, ending before the current minute.
  const nowMinuteSec = Math.floor(Date.now() / MINUTE_MS) * 60;
  historyStartSec = nowMinuteSec - 60 * 60;
  binance.setCandles(
    'BTC/USDT',
    Array.from({ length: 60 }, (_, i) => ({
      bucketStartSec: nowMinuteSec - (60 - i) * 60,
      open: 99_000 + i,
      high: 99_100 + i,
      low: 98_900 + i,
      close: 99_050 + i,
    })),
  );
  registry = createMetricsRegistry();
  bus = memoryBus(registry, logger, { retainedPerPartitionMax: 100_000 });
  await bus.subscribe('market.ticks.v1', 'test-collector', async (event) => {
    if (event.payload.pair === PAIR) published.push(event.payload);
  });
  const config: PriceIngestServiceConfig = {
    PRICE_FEED_SEED: 7,
    TICK_INTERVAL_MS: 250,
    TICK_FLUSH_INTERVAL_MS: 100,
    TICK_BATCH_MAX: 500,
    TICK_BUFFER_MAX: 20_000,
    TICK_RETENTION_DAYS: 7,
    TICK_RETENTION_INTERVAL_MS: 3_600_000,
    TICK_RETENTION_CHUNK: 100,
    PAIRS_POLL_INTERVAL_MS: 60_000,
    PRICE_FEEDS_MAX: 200,
    CHECKPOINT_INTERVAL_MS: 3_600_000,
    EXCHANGE_ENDPOINTS: JSON.stringify({ BINANCE: binance.endpoints, COINBASE: coinbase.endpoints }),
    FEED_REPORT_INTERVAL_MS: 200,
  };
  service = await startPriceIngest({
    db: database.db,
    bus,
    logger,
    registry,
    clock: systemClock,
    config,
    signingKey: generateSigningKey(),
  });
  // Both exchanges tick every 100 ms at the prices the test sets.
  pump = setInterval(() => {
    binance.tick('BTC/USDT', prices.binance);
    coinbase.tick('BTC/USDT', prices.coinbase);
  }, 100);
}, 60_000);

afterAll(async () => {
  clearInterval(pump);
  await service?.stop();
  await bus?.close();
  await Promise.all([binance?.close(), coinbase?.close()]);
  await database?.drop();
});

async function status() {
  await service.reportFeeds();
  return (await readPair(database.db, PAIR, Date.now()))!.feed_status;
}

async function feedRow() {
  await service.reportFeeds();
  return (await listPairFeeds(database.db, 100, Date.now())).find((row) => row.pair === PAIR)!;
}

async function switchTo(feed: Parameters<typeof setPairFeed>[2]): Promise<void> {
  await database.db.transaction().execute((trx) => setPairFeed(trx, PAIR, feed));
  await service.syncPairs();
}

describe('exchange feeds', () => {
  it('starts on OTC, with no exchange touched', async () => {
    expect(service.feeds()).toContain(PAIR);
    expect(binance.connections()).toBe(0);
    expect(coinbase.connections()).toBe(0);
    await waitFor(async () => (await status()) === 'live', {
      what: 'the OTC feed to be live',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
  });

  it('switches the pair to Binance with Coinbase as reference without a restart', async () => {
    await switchTo({
      provider: 'BINANCE',
      providerSymbol: 'BTC/USDT',
      referenceProvider: 'COINBASE',
      referenceSymbol: 'BTC/USDT',
      referenceSpreadBps: 50,
    });
    await waitFor(
      async () => published.some((t) => t.price === prices.binance && t.reference?.price === prices.coinbase),
      { what: 'a published Binance tick carrying the Coinbase price', timeoutMs: 20_000, intervalMs: 100 },
    );
    const tick = published.findLast((t) => t.price === prices.binance)!;
    expect(tick.reference).toEqual({ price: prices.coinbase, spreadBps: 50 });
    await service.flush();
    const stored = await sql<{ n: number }>`
      select count(*)::int as n from market_ticks where pair = ${PAIR} and price = ${prices.binance}`.execute(
      database.db,
    );
    expect(stored.rows[0]!.n).toBeGreaterThan(0);
    const references = await sql<{ n: number }>`
      select count(*)::int as n from market_reference_ticks
      where pair = ${PAIR} and provider = 'COINBASE' and price = ${prices.coinbase}`.execute(database.db);
    expect(references.rows[0]!.n).toBeGreaterThan(0);
    await waitFor(async () => (await status()) === 'live', {
      what: 'both feeds live and agreeing',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    const row = await feedRow();
    expect(row).toMatchObject({
      feed_status: 'live',
      spread_bps: 50,
      primary: { provider: 'BINANCE', source_symbol: 'BTC/USDT', state: 'live' },
      reference: { provider: 'COINBASE', source_symbol: 'BTC/USDT', state: 'live' },
    });
    expect(row.divergence_bps).toBeCloseTo(1, 0);
  });

  it("backfills the chart from the exchange's OHLCV", async () => {
    const candle = await database.db
      .selectFrom('market_candles')
      .select(['open', 'close'])
      .where('pair', '=', PAIR)
      .where('timeframe_sec', '=', 60)
      .where('bucket_start_sec', '=', historyStartSec)
      .executeTakeFirst();
    expect(candle).toEqual({ open: 99_000, close: 99_050 });
  });

  it('marks the pair diverged when one feed jumps, and live again when they agree', async () => {
    prices.binance = 103_000;
    await waitFor(async () => (await status()) === 'diverged', {
      what: 'the pair to diverge',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect(await metricValue(registry, 'updown_feed_tradable', { pair: PAIR })).toBe(0);
    expect((await feedRow()).divergence_bps).toBeGreaterThan(50);
    prices.binance = 100_000;
    await waitFor(async () => (await status()) === 'live', {
      what: 'the pair to agree again',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect(await metricValue(registry, 'updown_feed_tradable', { pair: PAIR })).toBe(1);
  });

  it('counts and skips a malformed message, and keeps ticking', async () => {
    const before = (await feedRow()).primary.malformed;
    binance.sendMalformed('BTC/USDT');
    await waitFor(async () => (await feedRow()).primary.malformed > before, {
      what: 'the malformed message to be counted',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    const count = published.length;
    await waitFor(async () => published.length > count + 5, {
      what: 'ticks after the malformed message',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect(await status()).toBe('live');
  });

  it('pauses the pair while its feed stalls, and counts the gap when it resumes', async () => {
    const gapsBefore = (await feedRow()).primary.gaps;
    binance.stall(true);
    await waitFor(async () => (await status()) === 'paused', {
      what: 'the stalled pair to pause',
      timeoutMs: 15_000,
      intervalMs: 100,
    });
    expect((await feedRow()).primary.state).toBe('stale');
    binance.stall(false);
    await waitFor(async () => (await status()) === 'live', {
      what: 'the feed to resume',
      timeoutMs: 40_000,
      intervalMs: 100,
    });
    expect((await feedRow()).primary.gaps).toBeGreaterThan(gapsBefore);
  }, 60_000);

  it('pauses the pair while its reference stalls: nothing to check prices against', async () => {
    coinbase.stall(true);
    await waitFor(async () => (await status()) === 'paused', {
      what: 'the pair to pause',
      timeoutMs: 15_000,
      intervalMs: 100,
    });
    const stalled = published.findLast((t) => t.price === prices.binance)!;
    await waitFor(
      async () => published.findLast((t) => t.price === prices.binance)?.reference?.price === null,
      { what: 'ticks saying the reference has no price', timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(stalled.reference?.spreadBps).toBe(50);
    coinbase.stall(false);
    await waitFor(async () => (await status()) === 'live', {
      what: 'the reference to resume',
      timeoutMs: 40_000,
      intervalMs: 100,
    });
  }, 60_000);

  it('goes back to OTC and drops the reference when the admin says so', async () => {
    await switchTo({
      provider: 'OTC',
      providerSymbol: null,
      referenceProvider: null,
      referenceSymbol: null,
      referenceSpreadBps: null,
    });
    const count = published.length;
    await waitFor(
      async () => published.slice(count).some((t) => t.price !== prices.binance && t.reference === undefined),
      { what: 'OTC ticks without a reference', timeoutMs: 10_000, intervalMs: 100 },
    );
    const row = await feedRow();
    expect(row.primary.provider).toBe('OTC');
    expect(row.reference).toBeNull();
  });
});
