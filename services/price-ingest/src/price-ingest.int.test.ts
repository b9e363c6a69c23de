import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  createMetricsRegistry,
  generateSigningKey,
  ManualClock,
  type Registry,
} from '@updown/runtime';
import { createTestDatabase, memoryBus, type TestDatabase } from '@updown/runtime/testing';
import type { MarketTickPayload } from '@updown/schemas';
import { aggregateCandles } from './candles/candles.domain';
import type { PriceIngestServiceConfig } from './config';
import { startPriceIngest, type RunningPriceIngest } from './price-ingest.service';
import { metricValue, waitFor } from './testing/helpers';

const SEEDED = ['BTCUSDT', 'EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'ETHUSD'];
const TIMEFRAMES = [60, 300, 900, 1800, 3600];
const DAY_MS = 86_400_000;

const config: PriceIngestServiceConfig = {
  PRICE_FEED_SEED: 7,
  TICK_INTERVAL_MS: 250,
  TICK_FLUSH_INTERVAL_MS: 200,
  TICK_BATCH_MAX: 500,
  TICK_BUFFER_MAX: 20_000,
  TICK_RETENTION_DAYS: 7,
  TICK_RETENTION_INTERVAL_MS: 60_000,
  TICK_RETENTION_CHUNK: 100,
  PAIRS_POLL_INTERVAL_MS: 2_000,
  PRICE_FEEDS_MAX: 200,
  CHECKPOINT_INTERVAL_MS: 60_000,
  EXCHANGE_ENDPOINTS: '',
  FEED_REPORT_INTERVAL_MS: 1_000,
};

const logger = createLogger({ level: 'silent', name: 'price-ingest-test' });
let database: TestDatabase;
let clock: ManualClock;
let registry: Registry;
let bus: ReturnType<typeof memoryBus>;
let service: RunningPriceIngest;
const published: MarketTickPayload[] = [];

beforeAll(async () => {
  database = await createTestDatabase({ max: 5 });
  // 10:02:30 UTC: the current 5m, 15m, 30m and 1h candles already hold backfilled minutes.
  clock = new ManualClock(Date.UTC(2026, 0, 5, 10, 2, 30));
  registry = createMetricsRegistry();
  bus = memoryBus(registry, logger, { retainedPerPartitionMax: 100_000 });
  await bus.subscribe(
    'market.ticks.v1',
    'test-collector',
    async (event) => void published.push(event.payload),
  );
  service = await startPriceIngest({
    db: database.db,
    bus,
    logger,
    registry,
    clock,
    config,
    signingKey: generateSigningKey(),
  });
});

afterAll(async () => {
  await service?.stop();
  await bus?.close();
  await database?.drop();
});

/** Moves the clock (firing feed rounds and timers), then writes and publishes everything buffered. */
async function runFor(ms: number): Promise<void> {
  clock.advance(ms);
  expect(await service.flush()).toBe(true);
}

async function tickCount(pair?: string): Promise<number> {
  let query = database.db.selectFrom('market_ticks').select((eb) => eb.fn.countAll<string>().as('n'));
  if (pair) query = query.where('pair', '=', pair);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

describe('price-ingest service', () => {
  it('backfills at least 200 candles of every timeframe for every seeded pair, ending before the live minute', async () => {
    const counts = await sql<{ pair: string; timeframe_sec: number; n: number; last: number }>`
      select pair, timeframe_sec, count(*)::int as n, max(bucket_start_sec) as last
      from market_candles group by pair, timeframe_sec`.execute(database.db);
    expect(counts.rows).toHaveLength(SEEDED.length * TIMEFRAMES.length);
    for (const row of counts.rows) {
      expect(SEEDED).toContain(row.pair);
      expect(row.n, `${row.pair} ${row.timeframe_sec}s`).toBeGreaterThanOrEqual(200);
    }
    const liveMinute = Math.floor(clock.nowMs() / 60_000) * 60;
    expect(counts.rows.filter((r) => r.timeframe_sec === 60).every((r) => r.last === liveMinute - 60)).toBe(
      true,
    );
    expect(await metricValue(registry, 'updown_candle_backfills_total')).toBe(SEEDED.length);
    expect([...service.feeds()].sort()).toEqual([...SEEDED].sort());
    expect(await metricValue(registry, 'updown_price_feeds_active')).toBe(SEEDED.length);
  });

  it('ticks every pair on the clock, persists the ticks and publishes each one after it is stored', async () => {
    const startedAt = clock.nowMs();
    await runFor(1_000);
    expect(await tickCount()).toBe(4 * SEEDED.length);
    await waitFor(() => published.length === 4 * SEEDED.length, { what: 'published ticks' });

    const stored = await database.db
      .selectFrom('market_ticks')
      .select(['pair', 'price', 'at_ms as atMs'])
      .orderBy('id')
      .execute();
    expect(new Set(stored.map((t) => t.atMs))).toEqual(
      new Set([250, 500, 750, 1000].map((ms) => startedAt + ms)),
    );
    const key = (t: { pair: string; price: number; atMs: number }) => `${t.pair}@${t.atMs}=${t.price}`;
    expect(published.map(key).sort()).toEqual(stored.map(key).sort());
    for (const pair of SEEDED) {
      const ofPair = published.filter((t) => t.pair === pair).map((t) => t.atMs);
      expect(ofPair).toEqual([...ofPair].sort((a, b) => a - b));
      expect(await metricValue(registry, 'updown_ticks_published_total', { pair })).toBe(4);
    }
    const eurusd = stored.filter((t) => t.pair === 'EURUSD').map((t) => t.price);
    expect(eurusd.every((price) => Math.abs(price - 1.16) < 0.05 && Number(price.toFixed(5)) === price)).toBe(
      true,
    );
    expect(await metricValue(registry, 'updown_ticks_persisted_total')).toBe(4 * SEEDED.length);
  });

  it('keeps the current candles live, merged with the backfilled minutes', async () => {
    await runFor(40_000); // crosses 10:03:00
    const minute = Math.floor(clock.nowMs() / 60_000) * 60;
    const ticks = await database.db
      .selectFrom('market_ticks')
      .select(['pair', 'price', 'at_ms as atMs'])
      .where('pair', '=', 'BTCUSDT')
      .orderBy('at_ms')
      .execute();
    const candles = await database.db
      .selectFrom('market_candles')
      .selectAll()
      .where('pair', '=', 'BTCUSDT')
      .where('bucket_start_sec', '>=', minute - 180)
      .orderBy('timeframe_sec')
      .orderBy('bucket_start_sec')
      .execute();
    const find = (tf: number, bucket: number) =>
      candles.find((c) => c.timeframe_sec === tf && c.bucket_start_sec === bucket);

    // Minutes the feed produced alone are exactly the aggregate of their ticks.
    for (const bucket of [minute - 60, minute]) {
      const expected = aggregateCandles(
        ticks.filter((t) => Math.floor(t.atMs / 60_000) * 60 === bucket),
        [60],
      )[0]!;
      const stored = find(60, bucket)!;
      expect([stored.open, stored.high, stored.low, stored.close, stored.volume]).toEqual([
        expected.open,
        expected.high,
        expected.low,
        expected.close,
        expected.volume,
      ]);
    }
    // The 5m candle started at 10:00 from backfilled minutes: open kept, close follows the last tick.
    const fiveMinute = find(300, Math.floor(minute / 300) * 300)!;
    const backfilledOpen = find(60, Math.floor(minute / 300) * 300)!.open;
    expect(fiveMinute.open).toBe(backfilledOpen);
    expect(fiveMinute.close).toBe(ticks.at(-1)!.price);
    expect(fiveMinute.high).toBeGreaterThanOrEqual(Math.max(...ticks.map((t) => t.price)));
    expect(fiveMinute.low).toBeLessThanOrEqual(Math.min(...ticks.map((t) => t.price)));
  });

  it('starts a pair an admin adds within the poll interval, with history, and stops a disabled one', async () => {
    await database.db
      .insertInto('market_pairs')
      .values({ symbol: 'TESTIDX', display_name: 'Test Index', reference_price: null })
      .execute();
    await database.db
      .updateTable('market_pairs')
      .set({ active: false })
      .where('symbol', '=', 'ETHUSD')
      .execute();

    clock.advance(config.PAIRS_POLL_INTERVAL_MS);
    await waitFor(() => service.feeds().includes('TESTIDX') && !service.feeds().includes('ETHUSD'), {
      what: 'the poll to pick up the pair changes',
    });
    await service.flush(); // rounds produced while the poll ran, ETHUSD included
    const ethBefore = await tickCount('ETHUSD');
    await runFor(1_000);
    const added = await database.db
      .selectFrom('market_ticks')
      .select('price')
      .where('pair', '=', 'TESTIDX')
      .execute();
    expect(added.length).toBeGreaterThanOrEqual(4);
    expect(added.every((t) => t.price > 95 && t.price < 105)).toBe(true);
    expect(await tickCount('ETHUSD')).toBe(ethBefore);
    const history = await sql<{ n: number }>`
      select count(distinct (timeframe_sec, bucket_start_sec))::int as n from market_candles
      where pair = 'TESTIDX' and timeframe_sec = 3600`.execute(database.db);
    expect(history.rows[0]!.n).toBeGreaterThanOrEqual(200);
  });

  it('deletes ticks older than the retention on its schedule, in chunks, including pairs since removed', async () => {
    const old = clock.nowMs() - 8 * DAY_MS;
    const recent = clock.nowMs() - 6 * DAY_MS;
    const rows = [
      ...Array.from({ length: 250 }, (_, i) => ({ pair: 'EURUSD', at_ms: old + i, price: 1.1 })),
      ...Array.from({ length: 30 }, (_, i) => ({ pair: 'GONEUSD', at_ms: old + i, price: 2 })),
      ...Array.from({ length: 5 }, (_, i) => ({ pair: 'EURUSD', at_ms: recent + i, price: 1.1 })),
    ];
    await database.db.insertInto('market_ticks').values(rows).execute();
    // A reference feed's ticks go with them (chunk 100: three chunks for the old ones).
    await database.db
      .insertInto('market_reference_ticks')
      .values([
        ...Array.from({ length: 250 }, (_, i) => ({
          pair: 'EURUSD',
          at_ms: old + i,
          price: 1.1,
          provider: 'KRAKEN',
        })),
        { pair: 'EURUSD', at_ms: recent, price: 1.1, provider: 'KRAKEN' },
      ])
      .execute();

    clock.advance(config.TICK_RETENTION_INTERVAL_MS);
    const expired = () =>
      database.db
        .selectFrom('market_ticks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('at_ms', '<', clock.nowMs() - 7 * DAY_MS)
        .executeTakeFirstOrThrow();
    await waitFor(async () => Number((await expired()).n) === 0, { what: 'old ticks to be deleted' });
    const kept = await database.db
      .selectFrom('market_ticks')
      .select('at_ms')
      .where('at_ms', '>=', recent)
      .where('at_ms', '<', recent + 5)
      .execute();
    expect(kept).toHaveLength(5);
    expect(await metricValue(registry, 'updown_ticks_deleted_total')).toBe(280);
    const references = await database.db.selectFrom('market_reference_ticks').select('at_ms').execute();
    expect(references).toEqual([{ at_ms: recent }]);
    await service.flush();
  });

  it('after a restart continues from the stored price without backfilling again', async () => {
    await service.stop();
    const last = await database.db
      .selectFrom('market_ticks')
      .select(['price', 'at_ms as atMs'])
      .where('pair', '=', 'XAUUSD')
      .orderBy('at_ms', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const restartRegistry = createMetricsRegistry();
    service = await startPriceIngest({
      db: database.db,
      bus,
      logger,
      registry: restartRegistry,
      clock,
      config,
      signingKey: generateSigningKey(),
    });
    expect(await metricValue(restartRegistry, 'updown_candle_backfills_total')).toBe(0);
    await runFor(250);
    const next = await database.db
      .selectFrom('market_ticks')
      .select('price')
      .where('pair', '=', 'XAUUSD')
      .where('at_ms', '>', last.atMs)
      .orderBy('at_ms')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(Math.abs(next.price / last.price - 1)).toBeLessThan(0.001);
  });
});
