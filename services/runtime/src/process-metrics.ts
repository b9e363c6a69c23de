import {
  constants,
  monitorEventLoopDelay,
  PerformanceObserver,
  type IntervalHistogram,
  type PerformanceEntry,
} from 'node:perf_hooks';
import type pg from 'pg';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

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

/**
 * `updown_event_loop_delay_seconds{quantile}`: the 50th and 99th percentile and the maximum
 * (`quantile="1"`) of the event-loop delay since the previous scrape, sampled every millisecond;
 * each scrape starts a new window. `updown_gc_pause_seconds_total{kind}` and
 * `updown_gc_pauses_total{kind}` add up garbage-collection pauses since start;
 * `updown_gc_pause_max_seconds` is the longest single pause since the previous scrape.
 */
export function registerProcessStallMetrics(registry: Registry): void {
  const shared = processMonitors();
  const registers = [registry];
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
export function observeDbPool(pool: pg.Pool, registry: Registry): void {
  const registers = [registry];
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
        callback(...args);
      });
    }
    const result = connect() as Promise<unknown>;
    result.then(done, done);
    return result;
  };
  (pool as unknown as { connect: Connect }).connect = timed;
}
