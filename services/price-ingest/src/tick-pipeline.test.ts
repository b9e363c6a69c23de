import { afterAll, describe, expect, it } from 'vitest';
import { createDb, createLogger, createMetricsRegistry, ManualClock, offlineDb } from '@updown/runtime';
import { OtcProvider } from './feed/otc-provider';
import { priceIngestMetrics } from './metrics';
import { metricValue } from './testing/helpers';
import { TICK_WRITE_AGE_MS_MAX, TickPipeline } from './tick-pipeline';

/** A pool pointed at a port nothing listens on: every write fails at once, as when PostgreSQL is down. */
const unreachable = createDb('postgres://updown@127.0.0.1:1/none', { max: 1 });
afterAll(() => unreachable.close());

describe('tick pipeline while the database is down', () => {
  it('keeps the buffer bounded, pauses the feed, publishes nothing and counts it all', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5));
    const registry = createMetricsRegistry();
    const published: string[] = [];
    const pipeline = new TickPipeline({
      db: unreachable.db,
      publisher: { publish: async (_topic, key) => void published.push(key) },
      clock,
      logger: createLogger({ level: 'silent', name: 'pipeline-test' }),
      metrics: priceIngestMetrics(registry),
      flushIntervalMs: 200,
      batchMax: 10,
      bufferMax: 20,
    });
    const provider = new OtcProvider({ clock, seed: 1, tickIntervalMs: 250 });
    for (const symbol of ['EURUSD', 'GBPUSD', 'USDJPY'])
      provider.addPair({ symbol, sourceSymbol: null, referencePrice: 1.2, startPrice: 1.2 });
    pipeline.start();
    provider.start(pipeline);

    clock.advance(5_000); // 20 rounds of 3 ticks
    expect(pipeline.size).toBeLessThanOrEqual(20 + 3);
    expect(await pipeline.flush()).toBe(false);
    expect(published).toEqual([]);
    expect(await metricValue(registry, 'updown_feed_rounds_skipped_total')).toBeGreaterThan(0);
    expect(await metricValue(registry, 'updown_tick_flush_failures_total')).toBeGreaterThan(0);
    expect(await metricValue(registry, 'updown_tick_buffer_size')).toBe(pipeline.size);

    provider.stop();
    await pipeline.stop();
  });

  it('drops ticks that became too old to write instead of storing them late', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5));
    const registry = createMetricsRegistry();
    const pipeline = new TickPipeline({
      db: unreachable.db,
      publisher: { publish: async () => undefined },
      clock,
      logger: createLogger({ level: 'silent', name: 'pipeline-test' }),
      metrics: priceIngestMetrics(registry),
      flushIntervalMs: 200,
      batchMax: 100,
      bufferMax: 1_000,
    });
    const start = clock.nowMs();
    pipeline.push([{ pair: 'EURUSD', price: 1.1, atMs: start }]);
    clock.advance(TICK_WRITE_AGE_MS_MAX - 1);
    pipeline.push([{ pair: 'EURUSD', price: 1.2, atMs: clock.nowMs() }]);
    expect(await pipeline.flush()).toBe(false);
    expect(pipeline.size).toBe(2);

    clock.advance(2);
    expect(await pipeline.flush()).toBe(false);
    // The first tick is past the write age and gone; the second is still young enough to keep.
    expect(pipeline.size).toBe(1);
    expect(await metricValue(registry, 'updown_ticks_dropped_stale_total')).toBe(1);
    await pipeline.stop();
  });
});

describe('tick pipeline writes', () => {
  it('writes a batch in a transaction that does not wait for its WAL flush, ticks before candles, chain heads read once', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5));
    const statements: string[] = [];
    const published: string[] = [];
    const pipeline = new TickPipeline({
      db: offlineDb({ onQuery: (query) => statements.push(query.sql.replace(/\s+/g, ' ').trim()) }),
      publisher: { publish: async (_topic, key) => void published.push(key) },
      clock,
      logger: createLogger({ level: 'silent', name: 'pipeline-test' }),
      metrics: priceIngestMetrics(createMetricsRegistry()),
      flushIntervalMs: 200,
      batchMax: 100,
      bufferMax: 1_000,
    });
    pipeline.push([
      { pair: 'EURUSD', price: 1.1, atMs: clock.nowMs() },
      { pair: 'GBPUSD', price: 1.3, atMs: clock.nowMs() },
    ]);
    expect(await pipeline.flush()).toBe(true);
    // The pairs' chain heads are read once, when the pipeline first writes them. The setting is
    // local to the transaction: every other statement of the connection keeps PostgreSQL's
    // durable default.
    expect(statements[0]).toMatch(/^select p\.pair, h\.seq, h\.hash, h\.at_ms from unnest/);
    expect(statements[1]).toBe('set local synchronous_commit = off');
    expect(statements[2]).toMatch(/^insert into market_ticks \(pair, at_ms, price, seq, prev_hash, hash\)/);
    expect(statements[3]).toMatch(/^insert into market_candles /);
    expect(statements).toHaveLength(4);
    expect(published.sort()).toEqual(['EURUSD', 'GBPUSD']);

    statements.length = 0;
    pipeline.push([{ pair: 'EURUSD', price: 1.2, atMs: clock.nowMs() + 1 }]);
    expect(await pipeline.flush()).toBe(true);
    expect(statements.map((s) => s.slice(0, 25))).toEqual([
      'set local synchronous_com',
      'insert into market_ticks ',
      'insert into market_candle',
    ]);
    await pipeline.stop();
  });

  it("drops a tick not later than its pair's chain head: neither stored, nor in a candle, nor published", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5));
    const registry = createMetricsRegistry();
    const inserted: unknown[][] = [];
    const published: number[] = [];
    const pipeline = new TickPipeline({
      db: offlineDb({
        onQuery: (query) => {
          if (query.sql.includes('insert into market_ticks')) inserted.push([...query.parameters]);
        },
      }),
      publisher: { publish: async (_topic, _key, event) => void published.push(event.payload.atMs) },
      clock,
      logger: createLogger({ level: 'silent', name: 'pipeline-test' }),
      metrics: priceIngestMetrics(registry),
      flushIntervalMs: 200,
      batchMax: 100,
      bufferMax: 1_000,
    });
    const t = clock.nowMs();
    pipeline.push([
      { pair: 'EURUSD', price: 1.1, atMs: t },
      { pair: 'EURUSD', price: 1.2, atMs: t }, // the same instant: refused
      { pair: 'EURUSD', price: 1.3, atMs: t - 1 }, // earlier: refused
      { pair: 'EURUSD', price: 1.4, atMs: t + 1 },
    ]);
    expect(await pipeline.flush()).toBe(true);
    expect(published).toEqual([t, t + 1]);
    expect(await metricValue(registry, 'updown_ticks_dropped_not_later_total')).toBe(2);
    expect(await metricValue(registry, 'updown_ticks_persisted_total')).toBe(2);
    expect(JSON.stringify(inserted)).not.toContain('1.2');
    expect(JSON.stringify(inserted)).not.toContain('1.3');
    // The head moved to t + 1: a later batch at that instant is refused too.
    pipeline.push([{ pair: 'EURUSD', price: 1.5, atMs: t + 1 }]);
    expect(await pipeline.flush()).toBe(true);
    expect(published).toEqual([t, t + 1]);
    expect(await metricValue(registry, 'updown_ticks_dropped_not_later_total')).toBe(3);
    await pipeline.stop();
  });
});
