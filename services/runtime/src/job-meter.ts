import { AsyncResource, createHook, executionAsyncId } from 'node:async_hooks';
import type pg from 'pg';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * What a periodic job cost the process in one run: the longest stretch it held the event loop
 * (everything else, placements included, waited that long), its synchronous time in all, and how
 * long it held pool connections. A job that holds the loop for tens of milliseconds every few
 * seconds is invisible in averages and is exactly what puts a placement in the slowest 1%.
 */
export interface JobRun {
  readonly job: string;
  /** The longest stretch of the job's own synchronous work with no turn of the loop in between. */
  readonly loopHoldMaxMs: number;
  /**
   * The CPU time of that longest stretch (`process.cpuUsage`, every thread of the process): on a
   * machine whose cores are shared, a stretch's wall time also counts the time the process waited
   * for a core, which is not the job's doing; this is the part that is.
   */
  readonly loopHoldCpuMs: number;
  /** All of the run's synchronous work, summed. */
  readonly syncMs: number;
  /** Time from checkout to release of every pool connection the run took, summed. */
  readonly connectionHoldMs: number;
  readonly wallMs: number;
}

/**
 * A promise continuation of the job this soon after its previous slice is the same hold: only
 * microtasks ran between them, and no timer or socket of anyone else could. A slice that starts
 * from a timer, an immediate or a socket begins a new hold, however soon: the loop turned.
 */
const SLICE_MERGE_GAP_MS = 0.05;

interface Measuring {
  readonly job: string;
  readonly startedMs: number;
  /** The async resources created in the run's context, so their callbacks count as the run's. */
  readonly ids: number[];
  stretchMs: number;
  stretchCpuMs: number;
  lastSliceEndMs: number;
  loopHoldMaxMs: number;
  loopHoldCpuMs: number;
  syncMs: number;
  connectionHoldMs: number;
}

const tracked = new Map<number, Measuring>();
/** The tracked resources that are not promises: their callbacks start from the loop, not a microtask. */
const fromLoop = new Set<number>();
let runsInProgress = 0;
let openRun: Measuring | undefined;
let openDepth = 0;
let openAtMs = 0;
let openCpuUs = 0;

function cpuUs(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

// Enabled only while a job runs: with no job running, placements pay nothing for the hook.
const hook = createHook({
  init(asyncId, type) {
    const run = tracked.get(executionAsyncId());
    if (run) {
      tracked.set(asyncId, run);
      run.ids.push(asyncId);
      if (type !== 'PROMISE') fromLoop.add(asyncId);
    }
  },
  before(asyncId) {
    const run = tracked.get(asyncId);
    if (!run) return;
    if (openDepth++ > 0) return;
    if (fromLoop.has(asyncId)) run.lastSliceEndMs = Number.NEGATIVE_INFINITY;
    openRun = run;
    openAtMs = performance.now();
    openCpuUs = cpuUs();
  },
  after(asyncId) {
    if (openDepth === 0 || !tracked.has(asyncId)) return;
    if (--openDepth === 0) closeSlice(performance.now());
  },
});

function closeSlice(endMs: number): void {
  const run = openRun;
  openRun = undefined;
  openDepth = 0;
  if (!run) return;
  const sliceMs = endMs - openAtMs;
  const sliceCpuMs = (cpuUs() - openCpuUs) / 1000;
  run.syncMs += sliceMs;
  const continues = openAtMs - run.lastSliceEndMs <= SLICE_MERGE_GAP_MS;
  run.stretchMs = continues ? run.stretchMs + (endMs - run.lastSliceEndMs) : sliceMs;
  run.stretchCpuMs = continues ? run.stretchCpuMs + sliceCpuMs : sliceCpuMs;
  run.lastSliceEndMs = endMs;
  if (run.stretchMs > run.loopHoldMaxMs) {
    run.loopHoldMaxMs = run.stretchMs;
    run.loopHoldCpuMs = run.stretchCpuMs;
  }
}

const listeners = new Set<(run: JobRun) => void>();

/** Tells `listener` of every finished job run in this process; returns the way to stop. */
export function onJobRun(listener: (run: JobRun) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Runs `task` as one run of the periodic job `job`, measuring it (`JobRun`). For jobs started by
 * `repeatEvery` this happens already; a job with its own timer wraps each run in it.
 */
export function meterJob<T>(job: string, task: () => Promise<T>): Promise<T> {
  const run: Measuring = {
    job,
    startedMs: performance.now(),
    ids: [],
    stretchMs: 0,
    stretchCpuMs: 0,
    lastSliceEndMs: Number.NEGATIVE_INFINITY,
    loopHoldMaxMs: 0,
    loopHoldCpuMs: 0,
    syncMs: 0,
    connectionHoldMs: 0,
  };
  if (runsInProgress++ === 0) hook.enable();
  const scope = new AsyncResource('updown.job');
  tracked.set(scope.asyncId(), run);
  run.ids.push(scope.asyncId());
  let result: Promise<T>;
  try {
    result = scope.runInAsyncScope(task);
  } catch (error) {
    result = Promise.reject(error);
  }
  return result.finally(() => finish(run));
}

function finish(run: Measuring): void {
  if (openRun === run) closeSlice(performance.now());
  for (const id of run.ids) {
    tracked.delete(id);
    fromLoop.delete(id);
  }
  if (--runsInProgress === 0) hook.disable();
  const done: JobRun = {
    job: run.job,
    loopHoldMaxMs: run.loopHoldMaxMs,
    loopHoldCpuMs: run.loopHoldCpuMs,
    syncMs: run.syncMs,
    connectionHoldMs: run.connectionHoldMs,
    wallMs: performance.now() - run.startedMs,
  };
  for (const listener of listeners) listener(done);
}

type Connect = (callback?: (...args: unknown[]) => void) => unknown;
interface HandleLike {
  getAsyncId?: () => number;
}

/**
 * Counts the connections a job run checks out of `pool` as its own: the time each is held, and
 * the socket's callbacks while it is (parsing the rows the job asked for is the job's work too).
 */
export function meterJobConnections(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as Connect;
  const metered: Connect = (callback) => {
    const run = runsInProgress > 0 && !callback ? tracked.get(executionAsyncId()) : undefined;
    if (!run) return connect(callback);
    return (connect() as Promise<pg.PoolClient>).then((client) => holdFor(run, client));
  };
  (pool as unknown as { connect: Connect }).connect = metered;
}

function holdFor(run: Measuring, client: pg.PoolClient): pg.PoolClient {
  const checkedOutMs = performance.now();
  const handle = (client as unknown as { connection?: { stream?: { _handle?: HandleLike } } }).connection
    ?.stream?._handle;
  const socketId = handle?.getAsyncId?.();
  if (socketId !== undefined && !tracked.has(socketId)) {
    tracked.set(socketId, run);
    fromLoop.add(socketId);
  }
  // The pool gives every checkout a fresh `release`, so this wrapper lasts this checkout only.
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    run.connectionHoldMs += performance.now() - checkedOutMs;
    if (socketId !== undefined && tracked.get(socketId) === run) {
      tracked.delete(socketId);
      fromLoop.delete(socketId);
    }
    release(error);
  };
  return client;
}

/**
 * `updown_job_runs_total{task}`, `updown_job_loop_hold_seconds{task}` (the longest hold of each
 * run), `updown_job_loop_hold_max_seconds{task}` (the longest since the previous scrape) and its
 * CPU time, `updown_job_sync_seconds_total{task}` and `updown_job_connection_hold_seconds{task}`
 * (per run). The label is `task`, not `job`: Prometheus sets `job` on every series it scrapes.
 */
export function registerJobMetrics(registry: Registry): () => void {
  const registers = [registry];
  const runs = new Counter({
    name: 'updown_job_runs_total',
    help: 'Runs of each periodic job',
    labelNames: ['task'],
    registers,
  });
  const hold = new Histogram({
    name: 'updown_job_loop_hold_seconds',
    help: 'The longest time one run of a periodic job held the event loop without a break',
    labelNames: ['task'],
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5],
    registers,
  });
  const holdMax = new Map<string, number>();
  new Gauge({
    name: 'updown_job_loop_hold_max_seconds',
    help: 'The longest time a periodic job held the event loop without a break since the previous scrape',
    labelNames: ['task'],
    registers,
    collect() {
      this.reset();
      for (const [job, seconds] of holdMax) this.set({ task: job }, seconds);
      holdMax.clear();
    },
  });
  const holdCpuMax = new Map<string, number>();
  new Gauge({
    name: 'updown_job_loop_hold_cpu_max_seconds',
    help: 'CPU time of the longest hold of updown_job_loop_hold_max_seconds (its wall time less any wait for a core)',
    labelNames: ['task'],
    registers,
    collect() {
      this.reset();
      for (const [job, seconds] of holdCpuMax) this.set({ task: job }, seconds);
      holdCpuMax.clear();
    },
  });
  const sync = new Counter({
    name: 'updown_job_sync_seconds_total',
    help: 'Synchronous time of periodic jobs, summed over their runs',
    labelNames: ['task'],
    registers,
  });
  const connection = new Histogram({
    name: 'updown_job_connection_hold_seconds',
    help: 'Time one run of a periodic job held pool connections, summed over its connections',
    labelNames: ['task'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers,
  });
  return onJobRun((run) => {
    const labels = { task: run.job };
    runs.inc(labels);
    hold.observe(labels, run.loopHoldMaxMs / 1000);
    if (run.loopHoldMaxMs / 1000 >= (holdMax.get(run.job) ?? 0)) {
      holdMax.set(run.job, run.loopHoldMaxMs / 1000);
      holdCpuMax.set(run.job, run.loopHoldCpuMs / 1000);
    }
    sync.inc(labels, run.syncMs / 1000);
    connection.observe(labels, run.connectionHoldMs / 1000);
  });
}
