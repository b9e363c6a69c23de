import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { DatabaseHost, PrimaryLocator } from './db/primary-connector';
import { createMetricsRegistry, observeDbPool } from './metrics';
import { allocatedSoFar, foldGcRecords, heapAllocatedBytes } from './process-metrics';
import { metricValue } from './testing/metric-value';

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Holds the event loop, as a long synchronous task in a request would.
  }
}

/** The value of one series in the text a scrape returns. */
function scraped(text: string, series: RegExp): number {
  const match = new RegExp(`^${series.source} ([^\\s]+)$`, 'm').exec(text);
  if (!match) throw new Error(`no ${series.source} in:\n${text}`);
  return Number(match[1]);
}

describe('event-loop delay at 1 ms resolution', () => {
  it('shows a stall as the maximum of the window, then starts a new window', async () => {
    const registry = createMetricsRegistry({ service: 'test' });
    await registry.metrics(); // starts a fresh window
    await sleep(20);
    blockFor(60);
    await sleep(20);
    const text = await registry.metrics();
    expect(text).toMatch(/^# TYPE updown_event_loop_delay_seconds gauge$/m);
    const max = scraped(text, /updown_event_loop_delay_seconds\{quantile="1",service="test"\}/);
    const p50 = scraped(text, /updown_event_loop_delay_seconds\{quantile="0.5",service="test"\}/);
    // The monitor's sample at 1 ms saw the loop late by about the stall.
    expect(max).toBeGreaterThanOrEqual(0.055);
    expect(max).toBeLessThan(1);
    expect(p50).toBeLessThan(max);

    // The stall belongs to the previous window only.
    await sleep(30);
    const next = await registry.metrics();
    expect(scraped(next, /updown_event_loop_delay_seconds\{quantile="1",service="test"\}/)).toBeLessThan(max);
  });
});

describe('garbage-collection pauses', () => {
  it('adds up pause time and count by kind', async () => {
    const registry = createMetricsRegistry();
    const gc = (globalThis as { gc?: () => void }).gc;
    // Without --expose-gc, allocate until the young generation is collected at least once.
    if (gc) gc();
    else for (let i = 0; i < 200; i++) new Array(100_000).fill(i);
    await sleep(10); // observers are told asynchronously
    const text = await registry.metrics();
    expect(text).toMatch(/^updown_gc_pauses_total\{kind="(minor|major|incremental|weakcb)"\} [1-9]/m);
    const seconds = await metricValue(registry, 'updown_gc_pause_seconds_total');
    expect(seconds).toBeGreaterThan(0);
    expect(text).toMatch(/^updown_gc_pause_max_seconds [0-9.e-]+$/m);
  });
});

describe('connection pool checkout waits', () => {
  it('times each checkout, callback and promise forms, and reports the pool at scrape time', async () => {
    // Nothing listens on port 1, so no client can be created: checkouts fail fast, and the time
    // until the caller has its answer is still observed.
    const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/none', max: 1 });
    const registry = createMetricsRegistry();
    observeDbPool(pool, registry);
    await expect(pool.connect()).rejects.toThrow();
    await new Promise<void>((resolve) => pool.connect(() => resolve()));
    const text = await registry.metrics();
    expect(text).toMatch(/^updown_db_pool_connections\{state="waiting"\} 0$/m);
    expect(text).toMatch(/^updown_db_pool_checkout_wait_seconds_count 2$/m);
    // Both checkouts failed to open a connection.
    expect(text).toMatch(/^updown_db_connection_errors_total\{kind="connect"\} 2$/m);
    await pool.end();
  });

  it('reports, over a primary and its standbys, the server written to and the failovers followed', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/none', max: 1 });
    const registry = createMetricsRegistry();
    let known: DatabaseHost | undefined = { host: '10.0.0.2', port: 5433 };
    let moves = 3;
    const primary = { known: () => known, moved: () => moves } as unknown as PrimaryLocator;
    observeDbPool(pool, registry, primary);
    let text = await registry.metrics();
    expect(text).toMatch(/^updown_db_primary\{host="10.0.0.2:5433"\} 1$/m);
    expect(text).toMatch(/^updown_db_primary_known 1$/m);
    expect(text).toMatch(/^updown_db_primary_changes_total 3$/m);
    // The lag is read from the primary; this one cannot be reached, so no standby is reported.
    expect(text).not.toMatch(/^updown_db_replication_lag_seconds\{/m);
    known = undefined;
    moves = 4;
    text = await registry.metrics();
    expect(text).toMatch(/^updown_db_primary_known 0$/m);
    expect(text).not.toMatch(/^updown_db_primary\{/m);
    expect(text).toMatch(/^updown_db_primary_changes_total 4$/m);
    await pool.end();
  });
});

describe('bytes allocated on the V8 heap', () => {
  it('adds what each collection found allocated since the one before, then the growth since the last', () => {
    const start = { allocatedBytes: 0, usedAfterLastGcBytes: 1_000, lastGc: undefined };
    const first = { gcType: 'Scavenge', usedBeforeBytes: 5_000, usedAfterBytes: 2_000 };
    const second = { gcType: 'MarkSweepCompact', usedBeforeBytes: 9_000, usedAfterBytes: 1_500 };
    const folded = foldGcRecords(start, [first, second]);
    expect(folded.allocatedBytes).toBe(4_000 + 7_000);
    expect(allocatedSoFar(folded, 2_500)).toBe(11_000 + 1_000);
    // The next session opens with the collection the last one closed on: counted once.
    const third = { gcType: 'Scavenge', usedBeforeBytes: 4_500, usedAfterBytes: 2_000 };
    expect(foldGcRecords(folded, [{ ...second }, third]).allocatedBytes).toBe(11_000 + 3_000);
  });

  it('grows by at least what the process allocated, and not far beyond it', async () => {
    const registry = createMetricsRegistry();
    const before = await metricValue(registry, 'updown_heap_allocated_bytes_total');
    const arrayBytes = 65_536 * 8; // a packed array of small integers: one 8-byte slot each
    const arrays = 100;
    let kept: number[][] = [];
    for (let i = 0; i < arrays; i++) {
      kept.push(new Array<number>(65_536).fill(i));
      // Keep a few, so scavenges promote some and collect the rest, as a service's garbage does.
      if (kept.length > 4) kept = kept.slice(1);
    }
    const after = await metricValue(registry, 'updown_heap_allocated_bytes_total');
    const allocated = arrays * arrayBytes;
    expect(kept.length).toBe(4);
    // A few per cent short at most: what concurrent sweeping frees after a collection reports is
    // taken off the next interval (seen on CI: 0.3% under).
    expect(after - before).toBeGreaterThanOrEqual(allocated * 0.95);
    expect(after - before).toBeLessThan(allocated * 1.5);
    const text = await registry.metrics();
    expect(text).toMatch(/^# TYPE updown_heap_allocated_bytes_total counter$/m);
    expect(heapAllocatedBytes()).toBeGreaterThanOrEqual(after);
  });
});
