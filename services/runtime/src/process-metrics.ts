import {
  constants,
  monitorEventLoopDelay,
  PerformanceObserver,
  type IntervalHistogram,
  type PerformanceEntry,
} from 'node:perf_hooks';
import v8 from 'node:v8';
import type pg from 'pg';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { hostLabel, type PrimaryLocator } from './db/primary-connector';
import { readOncePerScrape } from './scrape-read';

/**
 * What stalls a process for a few milliseconds, finely enough to explain a request's tail: the
 * event-loop delay at 1 ms resolution (prom-client's default metrics sample at 10 ms, which hides a
 * 5 ms stall entirely) and garbage-collection pauses by kind. One monitor and one observer serve the
 * whole process, however many registries (tests create many); each registry's gauges read them
 * when scraped.
 */

/** Sampling interval of the event-loop monitor. */
const LOOP_RESOLUTION_MS = 1;

const GC_KINDS: Readonly<Record<number, string>> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

interface GcTotals {
  seconds: number;
  count: number;
}

interface ProcessMonitors {
  readonly loop: IntervalHistogram;
  readonly gc: Map<string, GcTotals>;
  /** Longest single pause since the last scrape read it. */
  gcPauseMaxSeconds: number;
}

let monitors: ProcessMonitors | undefined;

function processMonitors(): ProcessMonitors {
  if (monitors) return monitors;
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  const created: ProcessMonitors = { loop, gc: new Map(), gcPauseMaxSeconds: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
      const kind = GC_KINDS[detail?.kind ?? -1] ?? 'other';
      const seconds = entry.duration / 1000;
      const totals = created.gc.get(kind) ?? { seconds: 0, count: 0 };
      totals.seconds += seconds;
      totals.count += 1;
      created.gc.set(kind, totals);
      if (seconds > created.gcPauseMaxSeconds) created.gcPauseMaxSeconds = seconds;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  monitors = created;
  return created;
}

/** One garbage collection as `v8.GCProfiler` reports it: the used heap just before and just after. */
export interface GcHeapRecord {
  readonly gcType: string;
  readonly usedBeforeBytes: number;
  readonly usedAfterBytes: number;
}

/**
 * Bytes allocated on the V8 heap, added up from the heap's used size around each collection: V8
 * frees almost nothing between two collections, so the used size grows by what was allocated, and
 * each collection's "used before" less the previous one's "used after" is what was allocated in
 * between. Almost: a mark-sweep's pages are swept concurrently after it reports, and what they free
 * then is subtracted from the next interval, so the count can fall a few per cent short of the
 * allocation (never above it). Pure, so the arithmetic is tested without a collector.
 */
export interface HeapAllocationState {
  /** Allocated up to the last folded collection. */
  readonly allocatedBytes: number;
  /** The used heap right after the last folded collection (or when counting started). */
  readonly usedAfterLastGcBytes: number;
  /** The last folded collection, to drop it when the next profiler session reports it again. */
  readonly lastGc: GcHeapRecord | undefined;
}

const sameGc = (a: GcHeapRecord | undefined, b: GcHeapRecord | undefined) =>
  a !== undefined &&
  b !== undefined &&
  a.gcType === b.gcType &&
  a.usedBeforeBytes === b.usedBeforeBytes &&
  a.usedAfterBytes === b.usedAfterBytes;

export function foldGcRecords(
  state: HeapAllocationState,
  records: readonly GcHeapRecord[],
): HeapAllocationState {
  let { allocatedBytes, usedAfterLastGcBytes, lastGc } = state;
  // Sessions overlap by an instant so that no collection falls between them; one that both saw
  // opens the new session's list exactly as it closed the previous one's.
  const fresh = sameGc(lastGc, records[0]) ? records.slice(1) : records;
  for (const gc of fresh) {
    allocatedBytes += Math.max(0, gc.usedBeforeBytes - usedAfterLastGcBytes);
    usedAfterLastGcBytes = gc.usedAfterBytes;
    lastGc = gc;
  }
  return { allocatedBytes, usedAfterLastGcBytes, lastGc };
}

/** Allocated up to now: the folded total plus what the heap grew since the last collection. */
export function allocatedSoFar(state: HeapAllocationState, usedNowBytes: number): number {
  return state.allocatedBytes + Math.max(0, usedNowBytes - state.usedAfterLastGcBytes);
}

/**
 * A profiler session keeps every collection's record until stopped, so one is folded and replaced
 * at every scrape and at least this often: a process nobody scrapes keeps a bounded list.
 */
const GC_PROFILER_ROTATE_MS = 10_000;

interface GcProfilerStats {
  statistics: {
    gcType: string;
    beforeGC: { heapStatistics: { usedHeapSize: number } };
    afterGC: { heapStatistics: { usedHeapSize: number } };
  }[];
}

class HeapAllocationCounter {
  private profiler = new v8.GCProfiler();
  private state: HeapAllocationState;
  /** The counter never goes back, even when a collection sits between a fold and the read after it. */
  private reportedBytes = 0;

  constructor() {
    this.profiler.start();
    this.state = {
      allocatedBytes: 0,
      usedAfterLastGcBytes: v8.getHeapStatistics().used_heap_size,
      lastGc: undefined,
    };
    setInterval(() => this.rotate(), GC_PROFILER_ROTATE_MS).unref();
  }

  allocatedBytes(): number {
    this.rotate();
    const now = allocatedSoFar(this.state, v8.getHeapStatistics().used_heap_size);
    this.reportedBytes = Math.max(this.reportedBytes, now);
    return this.reportedBytes;
  }

  private rotate(): void {
    // The next session starts before the last one stops, so every collection is in one of them.
    const next = new v8.GCProfiler();
    next.start();
    const stats = this.profiler.stop() as unknown as GcProfilerStats;
    this.profiler = next;
    this.state = foldGcRecords(
      this.state,
      stats.statistics.map((s) => ({
        gcType: s.gcType,
        usedBeforeBytes: s.beforeGC.heapStatistics.usedHeapSize,
        usedAfterBytes: s.afterGC.heapStatistics.usedHeapSize,
      })),
    );
  }
}

let heapAllocation: HeapAllocationCounter | undefined;

/**
 * Bytes allocated on this process's V8 heap since counting started (the first call, or the first
 * registry). Off-heap memory (Buffer and ArrayBuffer contents) is not included.
 */
export function heapAllocatedBytes(): number {
  heapAllocation ??= new HeapAllocationCounter();
  return heapAllocation.allocatedBytes();
}

/**
 * `updown_event_loop_delay_seconds{quantile}`: the 50th and 99th percentile and the maximum
 * (`quantile="1"`) of the event-loop delay since the previous scrape, sampled every millisecond;
 * each scrape starts a new window. `updown_gc_pause_seconds_total{kind}` and
 * `updown_gc_pauses_total{kind}` add up garbage-collection pauses since start;
 * `updown_gc_pause_max_seconds` is the longest single pause since the previous scrape.
 * `updown_heap_allocated_bytes_total` is what the process allocated on the V8 heap since start
 * (see `heapAllocatedBytes`): divided by the requests of a window, the allocation per request.
 */
export function registerProcessStallMetrics(registry: Registry): void {
  const shared = processMonitors();
  const registers = [registry];
  heapAllocatedBytes(); // starts counting with the first registry
  new Counter({
    name: 'updown_heap_allocated_bytes_total',
    help: 'Bytes allocated on the V8 heap since start, from the used heap size around each garbage collection',
    registers,
    collect() {
      this.reset();
      this.inc(heapAllocatedBytes());
    },
  });
  new Gauge({
    name: 'updown_event_loop_delay_seconds',
    help: 'Event-loop delay since the previous scrape, sampled every 1 ms: quantile 0.5, 0.99 and 1 (the maximum)',
    labelNames: ['quantile'],
    registers,
    collect() {
      const { loop } = shared;
      // Before the first sample the histogram reports its extreme initial values; a window
      // without samples reads as no delay.
      const sampled = loop.count > 0;
      this.set({ quantile: '0.5' }, sampled ? loop.percentile(50) / 1e9 : 0);
      this.set({ quantile: '0.99' }, sampled ? loop.percentile(99) / 1e9 : 0);
      this.set({ quantile: '1' }, sampled ? loop.max / 1e9 : 0);
      loop.reset();
    },
  });
  new Counter({
    name: 'updown_gc_pause_seconds_total',
    help: 'Time the process was paused by garbage collection since start, by kind',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset();
      for (const [kind, totals] of shared.gc) this.inc({ kind }, totals.seconds);
    },
  });
  new Counter({
    name: 'updown_gc_pauses_total',
    help: 'Garbage-collection pauses since start, by kind',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset();
      for (const [kind, totals] of shared.gc) this.inc({ kind }, totals.count);
    },
  });
  new Gauge({
    name: 'updown_gc_pause_max_seconds',
    help: 'The longest single garbage-collection pause since the previous scrape',
    registers,
    collect() {
      this.set(shared.gcPauseMaxSeconds);
      shared.gcPauseMaxSeconds = 0;
    },
  });
}

/**
 * How long callers wait for a connection of `pool` (`updown_db_pool_checkout_wait_seconds`), and,
 * at scrape time, how many connections are open, idle and waited for. A wait here is time a
 * request spends before its first statement, invisible in PostgreSQL's own statistics.
 */
export function observeDbPool(pool: pg.Pool, registry: Registry, primary?: PrimaryLocator): void {
  const registers = [registry];
  const connectionErrors = new Counter({
    name: 'updown_db_connection_errors_total',
    help: 'Connections of the pool that could not be opened (connect) or that the server dropped while idle (lost)',
    labelNames: ['kind'],
    registers,
  });
  // A server that goes away takes its idle connections with it: each one is an error on the pool.
  pool.on('error', () => connectionErrors.inc({ kind: 'lost' }));
  if (primary) observePrimary(pool, registry, primary);
  const wait = new Histogram({
    name: 'updown_db_pool_checkout_wait_seconds',
    help: 'Time from asking the connection pool for a connection to getting one (or its error)',
    buckets: [0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1, 5],
    registers,
  });
  new Gauge({
    name: 'updown_db_pool_connections',
    help: 'Connections of the pool at scrape time: state total, idle, or waiting (callers queued for one)',
    labelNames: ['state'],
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  type Connect = (callback?: (...args: unknown[]) => void) => unknown;
  const connect = pool.connect.bind(pool) as Connect;
  const timed: Connect = (callback) => {
    const startedAt = performance.now();
    const done = () => wait.observe((performance.now() - startedAt) / 1000);
    if (callback) {
      return connect((...args: unknown[]) => {
        done();
        if (args[0]) connectionErrors.inc({ kind: 'connect' });
        callback(...args);
      });
    }
    const result = connect() as Promise<unknown>;
    result.then(done, () => {
      done();
      connectionErrors.inc({ kind: 'connect' });
    });
    return result;
  };
  (pool as unknown as { connect: Connect }).connect = timed;
}

/**
 * For a pool over a primary and its standbys (a multi-host `DATABASE_URL`): which server takes
 * writes as this process sees it, how often that changed, and, read from the primary at scrape
 * time, how far each standby is behind. One query per scrape, only while a primary is known.
 */
function observePrimary(pool: pg.Pool, registry: Registry, primary: PrimaryLocator): void {
  const registers = [registry];
  new Counter({
    name: 'updown_db_primary_changes_total',
    help: 'Times this process found the writable PostgreSQL server to be another than the one before (failovers)',
    registers,
    collect() {
      this.reset();
      this.inc(primary.moved());
    },
  });
  new Gauge({
    name: 'updown_db_primary_known',
    help: 'Whether this process knows a PostgreSQL server that takes writes (1), or none answers as one now (0)',
    registers,
    collect() {
      this.set(primary.known() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'updown_db_primary',
    help: 'The PostgreSQL server this process writes to, by host (1 on the primary; absent while none is known)',
    labelNames: ['host'],
    registers,
    collect() {
      this.reset();
      const host = primary.known();
      if (host) this.set({ host: hostLabel(host) }, 1);
    },
  });
  interface Standby {
    standby: string;
    sync_state: string;
    lag_bytes: number | null;
    lag_seconds: number | null;
  }
  const standbys = readOncePerScrape(async (): Promise<Standby[]> => {
    if (!primary.known()) return [];
    try {
      const { rows } = await pool.query<Standby>(
        `SELECT application_name AS standby, sync_state,
                pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::float8 AS lag_bytes,
                extract(epoch FROM replay_lag)::float8 AS lag_seconds
           FROM pg_stat_replication`,
      );
      return rows;
    } catch {
      return [];
    }
  });
  new Gauge({
    name: 'updown_db_replication_lag_bytes',
    help: 'WAL the primary has written that a standby has not replayed yet, in bytes, by standby',
    labelNames: ['standby', 'sync_state'],
    registers,
    async collect() {
      this.reset();
      for (const row of await standbys()) {
        this.set({ standby: row.standby, sync_state: row.sync_state }, row.lag_bytes ?? 0);
      }
    },
  });
  new Gauge({
    name: 'updown_db_replication_lag_seconds',
    help: 'How long ago a standby replayed what the primary had committed, in seconds, by standby (0 when caught up)',
    labelNames: ['standby', 'sync_state'],
    registers,
    async collect() {
      this.reset();
      for (const row of await standbys()) {
        this.set({ standby: row.standby, sync_state: row.sync_state }, row.lag_seconds ?? 0);
      }
    },
  });
}
