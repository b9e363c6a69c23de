import { promiseHooks } from 'node:v8';
import type pg from 'pg';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { HistogramCounts, serveScraped } from './scraped-histogram';

/**
 * What a periodic job cost the process in one run: the longest stretch it held the event loop
 * (everything else, placements included, waited that long), its synchronous time in all, and how
 * long it held pool connections. A job that holds the loop for tens of milliseconds every few
 * seconds is invisible in averages and is exactly what puts a placement in the slowest 1%.
 */
export interface JobRun {
  readonly job: string;
  /** The longest stretch of the job's own synchronous work with no turn of the loop in between. */
  readonly loopHoldMsMax: number;
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

interface Measuring {
  readonly job: string;
  readonly startedMs: number;
  stretchMs: number;
  stretchCpuMs: number;
  /** `drain` when the last slice ended: a slice can continue it only within the same drain. */
  lastSliceDrain: number;
  loopHoldMsMax: number;
  loopHoldCpuMs: number;
  syncMs: number;
  connectionHoldMs: number;
}

/**
 * The promises created while a run's code executes, so their continuations count as the run's.
 * Only the job's own promises are entered; a promise of anyone else costs one comparison in
 * `init` and nothing more, and entries go with their promises.
 */
const promisesOf = new WeakMap<object, Measuring>();
let runsInProgress = 0;
/** The run whose code executes now: the one its new promises and checkouts belong to. */
let current: Measuring | undefined;
let openRun: Measuring | undefined;
let openAtMs = 0;
let openCpuUs = 0;
/**
 * Counts the microtask queue's drains that ran a slice of a job. When a slice ends, a microtask
 * queues a tick that bumps it: Node runs ticks only once the microtask queue is empty, so the
 * bump comes after every continuation that follows the slice with no turn of the loop between,
 * and before anything else. (A tick queued straight from a timer's or socket's callback would run
 * before that callback's microtasks.) A slice that sees the count its predecessor ended with
 * continues it.
 */
let drain = 0;
let drainEndQueued = false;
function endDrain(): void {
  drainEndQueued = false;
  drain++;
}
function queueEndDrain(): void {
  process.nextTick(endDrain);
}

function cpuUs(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/*
 * V8's promise hooks rather than `async_hooks`: while an async hook is enabled, Node gives every
 * promise in the process an async id and a trigger id (two properties each) and runs its own
 * bookkeeping per promise, which was most of an idle process's allocation while a job ran. These
 * hooks see the same promises but leave them alone; the job's own are marked in `promisesOf`.
 * Enabled only while a job runs: with no job running, placements pay nothing for them.
 */
let stopHooks: (() => void) | undefined;
const hooks = {
  init(promise: Promise<unknown>): void {
    if (current !== undefined) promisesOf.set(promise, current);
  },
  before(promise: Promise<unknown>): void {
    const run = promisesOf.get(promise);
    if (run !== undefined && openRun === undefined) openSlice(run);
  },
  after(promise: Promise<unknown>): void {
    if (openRun !== undefined && promisesOf.get(promise) === openRun) closeSlice(performance.now());
  },
};

function openSlice(run: Measuring): void {
  current = run;
  openRun = run;
  openAtMs = performance.now();
  openCpuUs = cpuUs();
}

function closeSlice(endMs: number): void {
  const run = openRun;
  current = undefined;
  openRun = undefined;
  if (!run) return;
  const sliceMs = endMs - openAtMs;
  const sliceCpuMs = (cpuUs() - openCpuUs) / 1000;
  run.syncMs += sliceMs;
  // A slice in the same run of the microtask queue as the run's previous one continues its hold:
  // the loop could not turn in between. Only the job's own slices are summed, not the microtasks
  // of others that may have run between them (a GC pause or a wait for a core is no one's).
  const continues = run.lastSliceDrain === drain;
  run.stretchMs = continues ? run.stretchMs + sliceMs : sliceMs;
  run.stretchCpuMs = continues ? run.stretchCpuMs + sliceCpuMs : sliceCpuMs;
  run.lastSliceDrain = drain;
  if (!drainEndQueued) {
    drainEndQueued = true;
    queueMicrotask(queueEndDrain);
  }
  if (run.stretchMs > run.loopHoldMsMax) {
    run.loopHoldMsMax = run.stretchMs;
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
 *
 * The run's slices are its synchronous start and the continuations of the promises its code
 * created (every `await` and `then` of its own), and the callbacks of the sockets of the
 * connections it holds. Callbacks of timers or other handles it made are not timed themselves,
 * only what they resolve: in a job they only settle a promise the job awaits.
 */
export function meterJob<T>(job: string, task: () => Promise<T>): Promise<T> {
  const run: Measuring = {
    job,
    startedMs: performance.now(),
    stretchMs: 0,
    stretchCpuMs: 0,
    lastSliceDrain: -1,
    loopHoldMsMax: 0,
    loopHoldCpuMs: 0,
    syncMs: 0,
    connectionHoldMs: 0,
  };
  if (runsInProgress++ === 0) stopHooks = promiseHooks.createHook(hooks) as () => void;
  // Started inside another run's slice (a job running a job), its start is that slice's work.
  const outer = current;
  const opened = openRun === undefined;
  if (opened) openSlice(run);
  else current = run;
  let result: Promise<T>;
  try {
    result = task();
  } catch (error) {
    result = Promise.reject(error);
  } finally {
    if (opened) closeSlice(performance.now());
    current = outer;
  }
  return result.finally(() => finish(run));
}

function finish(run: Measuring): void {
  if (openRun === run) closeSlice(performance.now());
  if (--runsInProgress === 0) {
    stopHooks?.();
    stopHooks = undefined;
  }
  const done: JobRun = {
    job: run.job,
    loopHoldMsMax: run.loopHoldMsMax,
    loopHoldCpuMs: run.loopHoldCpuMs,
    syncMs: run.syncMs,
    connectionHoldMs: run.connectionHoldMs,
    wallMs: performance.now() - run.startedMs,
  };
  for (const listener of listeners) listener(done);
}

type Connect = (callback?: (...args: unknown[]) => void) => unknown;
type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
interface Stream {
  emit: Emit;
}

/**
 * Counts the connections a job run checks out of `pool` as its own: the time each is held, and
 * the socket's callbacks while it is (parsing the rows the job asked for is the job's work too).
 */
export function meterJobConnections(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as Connect;
  const metered: Connect = (callback) => {
    const run = runsInProgress > 0 && !callback ? current : undefined;
    if (!run) return connect(callback);
    return (connect() as Promise<pg.PoolClient>).then((client) => holdFor(run, client));
  };
  (pool as unknown as { connect: Connect }).connect = metered;
}

/**
 * Times a socket's `data` events as slices of `run` while the run holds its connection: `emit`
 * is shadowed on the socket for the checkout and the shadow removed at release, so a socket in
 * anyone else's hands pays nothing. Returns the way to remove it.
 */
function meterSocket(run: Measuring, stream: Stream): () => void {
  const own = Object.hasOwn(stream, 'emit');
  const emit = stream.emit;
  stream.emit = function (this: unknown, event: string | symbol) {
    // `arguments`, not a rest parameter, which would make an array per event.
    // eslint-disable-next-line prefer-rest-params
    if (event !== 'data' || openRun !== undefined) return Reflect.apply(emit, this, arguments) as boolean;
    openSlice(run);
    try {
      // eslint-disable-next-line prefer-rest-params
      return Reflect.apply(emit, this, arguments) as boolean;
    } finally {
      closeSlice(performance.now());
    }
  };
  return () => {
    if (own) stream.emit = emit;
    else delete (stream as Partial<Stream>).emit;
  };
}

function holdFor(run: Measuring, client: pg.PoolClient): pg.PoolClient {
  const checkedOutMs = performance.now();
  const stream = (client as unknown as { connection?: { stream?: Stream } }).connection?.stream;
  const unmeter = typeof stream?.emit === 'function' ? meterSocket(run, stream) : undefined;
  // The pool gives every checkout a fresh `release`, so this wrapper lasts this checkout only.
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    run.connectionHoldMs += performance.now() - checkedOutMs;
    unmeter?.();
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
  // Per job, plain numbers that prom-client reads when scraped: a `prom-client` call with labels
  // builds its label key every time, and jobs run many times a second in an idle process.
  const jobs = new Map<string, JobCounts>();
  const all: JobCounts[] = [];
  new Counter({
    name: 'updown_job_runs_total',
    help: 'Runs of each periodic job',
    labelNames: ['task'],
    registers,
    collect() {
      for (const job of all) {
        if (job.runs === job.reportedRuns) continue;
        this.inc(job.labels, job.runs - job.reportedRuns);
        job.reportedRuns = job.runs;
      }
    },
  });
  serveScraped(
    registry,
    new Histogram({
      name: 'updown_job_loop_hold_seconds',
      help: 'The longest time one run of a periodic job held the event loop without a break',
      labelNames: ['task'],
      buckets: HOLD_BUCKETS,
      registers: [],
    }),
    () => all.map((job) => job.hold),
  );
  new Gauge({
    name: 'updown_job_loop_hold_max_seconds',
    help: 'The longest time a periodic job held the event loop without a break since the previous scrape',
    labelNames: ['task'],
    registers,
    collect() {
      this.reset();
      for (const job of all) {
        if (job.holdMaxSeconds === undefined) continue;
        this.set(job.labels, job.holdMaxSeconds);
        job.holdMaxSeconds = undefined;
      }
    },
  });
  new Gauge({
    name: 'updown_job_loop_hold_cpu_max_seconds',
    help: 'CPU time of the longest hold of updown_job_loop_hold_max_seconds (its wall time less any wait for a core)',
    labelNames: ['task'],
    registers,
    collect() {
      this.reset();
      for (const job of all) {
        if (job.holdCpuMaxSeconds === undefined) continue;
        this.set(job.labels, job.holdCpuMaxSeconds);
        job.holdCpuMaxSeconds = undefined;
      }
    },
  });
  new Counter({
    name: 'updown_job_sync_seconds_total',
    help: 'Synchronous time of periodic jobs, summed over their runs',
    labelNames: ['task'],
    registers,
    collect() {
      for (const job of all) {
        if (job.syncSeconds === job.reportedSyncSeconds) continue;
        this.inc(job.labels, job.syncSeconds - job.reportedSyncSeconds);
        job.reportedSyncSeconds = job.syncSeconds;
      }
    },
  });
  serveScraped(
    registry,
    new Histogram({
      name: 'updown_job_connection_hold_seconds',
      help: 'Time one run of a periodic job held pool connections, summed over its connections',
      labelNames: ['task'],
      buckets: CONNECTION_HOLD_BUCKETS,
      registers: [],
    }),
    () => all.map((job) => job.connectionHold),
  );
  return onJobRun((run) => {
    let job = jobs.get(run.job);
    if (job === undefined) {
      job = new JobCounts(run.job);
      jobs.set(run.job, job);
      all.push(job);
    }
    job.runs++;
    const holdSeconds = run.loopHoldMsMax / 1000;
    job.hold.observe(holdSeconds);
    // The gauges' values are read once: the next scrape's maximum starts afresh.
    if (job.holdMaxSeconds === undefined || holdSeconds >= job.holdMaxSeconds) {
      job.holdMaxSeconds = holdSeconds;
      job.holdCpuMaxSeconds = run.loopHoldCpuMs / 1000;
    }
    job.syncSeconds += run.syncMs / 1000;
    job.connectionHold.observe(run.connectionHoldMs / 1000);
  });
}

const HOLD_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5];
const CONNECTION_HOLD_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

/** One job's series, as plain numbers until scraped. */
class JobCounts {
  readonly labels: { readonly task: string };
  runs = 0;
  reportedRuns = 0;
  syncSeconds = 0;
  reportedSyncSeconds = 0;
  /** The longest hold since the previous scrape and its CPU time; `undefined` when none ran since. */
  holdMaxSeconds: number | undefined;
  holdCpuMaxSeconds: number | undefined;
  readonly hold: HistogramCounts;
  readonly connectionHold: HistogramCounts;

  constructor(job: string) {
    this.labels = { task: job };
    this.hold = new HistogramCounts(HOLD_BUCKETS, this.labels);
    this.connectionHold = new HistogramCounts(CONNECTION_HOLD_BUCKETS, this.labels);
  }
}
