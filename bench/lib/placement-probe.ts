import { request } from 'undici';
import {
  countersBetween,
  type ActivitySampler,
  type ActivitySummary,
  type DatabaseCounters,
} from './pg-activity';
import type { PostgresCpuMeter, PostgresCpuSeconds, PostgresCpuSnapshot } from './postgres-cpu';
import { postgresCpuBetween } from './postgres-cpu';
import { ownCpuSeconds, readProcStat } from './proc-stat';
import { parsePromText, promByLabel, promSum, type PromSample } from './prom-text';

/**
 * What one load window cost and where its time went: CPU of each process of the platform under
 * test, of PostgreSQL (by kind of process) and of the load generator itself, read from /proc at
 * both ends; and, from each platform process's `/metrics` at both ends, the event-loop delay of the
 * window at 1 ms resolution, garbage-collection pauses, connection-pool checkout waits and the
 * server-side share of slow placements; and PostgreSQL's wait events sampled during the window.
 */

export interface ProbedProcess {
  /** `platform`, or a service name in the distributed layout. */
  readonly name: string;
  readonly pid: number;
  /** Its `/metrics` URL. */
  readonly metricsUrl: string;
}

export interface ProbeTargets {
  readonly processes: readonly ProbedProcess[];
  /** Absent when PostgreSQL's processes are not visible from here (a remote server). */
  readonly postgres: PostgresCpuMeter | undefined;
  readonly sampler: ActivitySampler | undefined;
}

export interface ProcessReading {
  readonly cpuSeconds: number;
  readonly loopP99Ms: number;
  readonly loopMsMax: number;
  readonly gcPauseMs: number;
  readonly gcPauseMsMax: number;
  /** Pauses by kind, milliseconds. */
  readonly gcByKindMs: Readonly<Record<string, number>>;
  readonly poolCheckouts: number;
  readonly poolWaitMeanMs: number;
  /** Checkouts that waited more than 5 ms. */
  readonly poolWaitsOver5ms: number;
  /** Placements this process answered, and how many took the server over 25 ms (arrival to last byte). */
  readonly placementsServed: number;
  readonly placementsServedOver25ms: number;
  /** The periodic jobs that ran in the window, by name (`updown_job_*`). */
  readonly jobs: Readonly<Record<string, JobReading>>;
  /** The placements the order service took over 20 ms on, and their average phases. */
  readonly slowPlacements: SlowPlacements;
}

export interface JobReading {
  readonly runs: number;
  /** The longest stretch one run held the event loop (the windowed gauge), and the runs' p99 (histogram bucket bound). */
  readonly loopHoldMsMax: number;
  readonly loopHoldP99Ms: number;
  /**
   * The bucket bound every run's hold stayed within: the only maximum left when another scraper
   * read the windowed gauge during the window (`loopHoldMsMax` is then 0).
   */
  readonly loopHoldMaxBoundMs: number;
  /** The CPU time of the longest hold: its wall time less the process's waits for a core. */
  readonly loopHoldCpuMs: number;
  /** Pool connections held by the window's runs, summed. */
  readonly connectionHoldMs: number;
}

export interface SlowPlacements {
  readonly count: number;
  /** Average per slow placement, by phase (`queued_behind_commit` is part of `queued`). */
  readonly meanPhaseMs: Readonly<Record<string, number>>;
}

export interface ProbeReading {
  readonly wallSeconds: number;
  readonly processes: Readonly<Record<string, ProcessReading>>;
  /** CPU of every platform process together. */
  readonly platformCpuSeconds: number;
  readonly generatorCpuSeconds: number;
  readonly postgres: PostgresCpuSeconds | undefined;
  readonly activity: ActivitySummary | undefined;
  /** Commits, rows and WAL over the window (approximate: see `DatabaseCounters`). */
  readonly database: DatabaseCounters | undefined;
}

const PLACE_ROUTE = '/api/trades/place';

async function scrape(url: string): Promise<PromSample[]> {
  const response = await request(url, { headersTimeout: 10_000, bodyTimeout: 10_000 });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
  return parsePromText(text);
}

interface ProcessStart {
  readonly cpuSeconds: number;
  readonly metrics: PromSample[];
}

/** The figures of one process between two scrapes (the second one read the windowed gauges). */
export function processReadingBetween(
  start: { cpuSeconds: number; metrics: readonly PromSample[] },
  end: { cpuSeconds: number; metrics: readonly PromSample[] },
): ProcessReading {
  const delta = (name: string, labels: Record<string, string> = {}) =>
    promSum(end.metrics, name, labels) - promSum(start.metrics, name, labels);
  const gcStart = promByLabel(start.metrics, 'updown_gc_pause_seconds_total', 'kind');
  const gcEnd = promByLabel(end.metrics, 'updown_gc_pause_seconds_total', 'kind');
  const gcByKindMs = Object.fromEntries(
    Object.entries(gcEnd)
      .map(([kind, seconds]) => [kind, (seconds - (gcStart[kind] ?? 0)) * 1000] as const)
      .filter(([, ms]) => ms > 0),
  );
  const checkouts = delta('updown_db_pool_checkout_wait_seconds_count');
  const place = { route: PLACE_ROUTE, method: 'POST' };
  const served = delta('updown_http_request_duration_seconds_count', place);
  const servedWithin25ms = delta('updown_http_request_duration_seconds_bucket', { ...place, le: '0.025' });
  const slowCount = delta('updown_placement_slow_total');
  const slowPhaseEnd = promByLabel(end.metrics, 'updown_placement_slow_phase_seconds_total', 'phase');
  const slowPhaseStart = promByLabel(start.metrics, 'updown_placement_slow_phase_seconds_total', 'phase');
  const meanPhaseMs: Record<string, number> = {};
  if (slowCount > 0) {
    for (const [phase, seconds] of Object.entries(slowPhaseEnd)) {
      meanPhaseMs[phase] = ((seconds - (slowPhaseStart[phase] ?? 0)) * 1000) / slowCount;
    }
  }
  return {
    jobs: jobsBetween(start.metrics, end.metrics),
    slowPlacements: { count: slowCount, meanPhaseMs },
    cpuSeconds: end.cpuSeconds - start.cpuSeconds,
    loopP99Ms: promSum(end.metrics, 'updown_event_loop_delay_seconds', { quantile: '0.99' }) * 1000,
    loopMsMax: promSum(end.metrics, 'updown_event_loop_delay_seconds', { quantile: '1' }) * 1000,
    gcPauseMs: Object.values(gcByKindMs).reduce((a, b) => a + b, 0),
    gcPauseMsMax: promSum(end.metrics, 'updown_gc_pause_max_seconds') * 1000,
    gcByKindMs,
    poolCheckouts: checkouts,
    poolWaitMeanMs:
      checkouts > 0 ? (delta('updown_db_pool_checkout_wait_seconds_sum') * 1000) / checkouts : 0,
    poolWaitsOver5ms: checkouts - delta('updown_db_pool_checkout_wait_seconds_bucket', { le: '0.005' }),
    placementsServed: served,
    placementsServedOver25ms: served - servedWithin25ms,
  };
}

/** Each job's runs in the window, from the difference of two scrapes (the max from the second). */
export function jobsBetween(
  start: readonly PromSample[],
  end: readonly PromSample[],
): Record<string, JobReading> {
  const runsEnd = promByLabel(end, 'updown_job_runs_total', 'task');
  const runsStart = promByLabel(start, 'updown_job_runs_total', 'task');
  const jobs: Record<string, JobReading> = {};
  for (const [job, total] of Object.entries(runsEnd)) {
    const runs = total - (runsStart[job] ?? 0);
    if (runs <= 0) continue;
    const labels = { task: job };
    const held = (name: string) => promSum(end, name, labels) - promSum(start, name, labels);
    jobs[job] = {
      runs,
      loopHoldMsMax: promSum(end, 'updown_job_loop_hold_max_seconds', labels) * 1000,
      loopHoldCpuMs: promSum(end, 'updown_job_loop_hold_cpu_max_seconds', labels) * 1000,
      loopHoldP99Ms: quantileBoundMs(start, end, 'updown_job_loop_hold_seconds', job, 0.99),
      loopHoldMaxBoundMs: quantileBoundMs(start, end, 'updown_job_loop_hold_seconds', job, 1),
      connectionHoldMs: held('updown_job_connection_hold_seconds_sum') * 1000,
    };
  }
  return jobs;
}

/** The upper bound of the histogram bucket holding the window's `q` quantile (Infinity past the last). */
function quantileBoundMs(
  start: readonly PromSample[],
  end: readonly PromSample[],
  name: string,
  job: string,
  q: number,
): number {
  const counts = new Map<number, number>();
  for (const [samples, sign] of [
    [end, 1],
    [start, -1],
  ] as const) {
    for (const sample of samples) {
      if (sample.name !== `${name}_bucket` || sample.labels.task !== job) continue;
      const le = sample.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(sample.labels.le);
      counts.set(le, (counts.get(le) ?? 0) + sign * sample.value);
    }
  }
  const bounds = [...counts.keys()].sort((a, b) => a - b);
  const total = counts.get(Number.POSITIVE_INFINITY) ?? 0;
  if (total <= 0) return 0;
  for (const le of bounds) if (counts.get(le)! >= q * total) return le * 1000;
  return Number.POSITIVE_INFINITY;
}

/**
 * The jobs of one process that ran in the window (runs, longest and p99 loop hold, connection
 * hold) and the average phases of its slow placements, for the `where` line.
 */
export function describeJobsAndSlow(p: ProcessReading): string {
  const round = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(ms < 10 ? 1 : 0) : 'inf');
  const jobs = Object.entries(p.jobs)
    .sort(([, a], [, b]) => b.loopHoldMsMax - a.loopHoldMsMax)
    .map(
      ([job, j]) =>
        `${job} ${j.runs}× hold max ${j.loopHoldMsMax > 0 ? `${round(j.loopHoldMsMax)} (cpu ${round(j.loopHoldCpuMs)})` : `≤${round(j.loopHoldMaxBoundMs)}`} p99≤${round(j.loopHoldP99Ms)} ms conn ${round(j.connectionHoldMs)} ms`,
    );
  const phases = Object.entries(p.slowPlacements.meanPhaseMs)
    .map(([phase, ms]) => `${phase} ${round(ms)}`)
    .join(', ');
  const slow =
    p.slowPlacements.count > 0
      ? `; ${p.slowPlacements.count} slow placements (>20 ms in the order service), mean ms: ${phases}`
      : '; no placement over 20 ms in the order service';
  return `${jobs.length > 0 ? `; jobs: ${jobs.join(', ')}` : '; no job ran'}${slow}`;
}

export class LoadProbe {
  private started:
    | {
        at: number;
        generator: NodeJS.CpuUsage;
        processes: Map<string, ProcessStart>;
        postgres: PostgresCpuSnapshot | undefined;
        counters: DatabaseCounters | undefined;
      }
    | undefined;

  constructor(private readonly targets: ProbeTargets) {}

  /** Scrapes first (which opens each process's event-loop window), then reads CPU, then samples. */
  async begin(): Promise<void> {
    const metrics = await Promise.all(this.targets.processes.map((p) => scrape(p.metricsUrl)));
    const processes = new Map<string, ProcessStart>();
    const cpu = await Promise.all(this.targets.processes.map((p) => cpuOf(p.pid)));
    this.targets.processes.forEach((p, i) =>
      processes.set(p.name, { cpuSeconds: cpu[i]!, metrics: metrics[i]! }),
    );
    const postgres = await this.targets.postgres?.snapshot();
    const counters = await this.targets.sampler?.counters();
    this.started = { at: performance.now(), generator: process.cpuUsage(), processes, postgres, counters };
    this.targets.sampler?.start();
  }

  /** Stops sampling, reads CPU, then scrapes (so the scrapes' own work is outside the window). */
  async end(): Promise<ProbeReading> {
    const started = this.started;
    if (!started) throw new Error('LoadProbe.end without begin');
    this.started = undefined;
    const activity = await this.targets.sampler?.stop();
    const wallSeconds = (performance.now() - started.at) / 1000;
    const generator = process.cpuUsage(started.generator);
    const postgresEnd = await this.targets.postgres?.snapshot();
    const counters = await this.targets.sampler?.counters();
    const cpu = await Promise.all(this.targets.processes.map((p) => cpuOf(p.pid)));
    const metrics = await Promise.all(this.targets.processes.map((p) => scrape(p.metricsUrl)));
    const processes: Record<string, ProcessReading> = {};
    this.targets.processes.forEach((p, i) => {
      processes[p.name] = processReadingBetween(started.processes.get(p.name)!, {
        cpuSeconds: cpu[i]!,
        metrics: metrics[i]!,
      });
    });
    return {
      wallSeconds,
      processes,
      platformCpuSeconds: Object.values(processes).reduce((sum, p) => sum + p.cpuSeconds, 0),
      generatorCpuSeconds: (generator.user + generator.system) / 1e6,
      postgres:
        started.postgres && postgresEnd ? postgresCpuBetween(started.postgres, postgresEnd) : undefined,
      activity,
      database: started.counters && counters ? countersBetween(started.counters, counters) : undefined,
    };
  }
}

async function cpuOf(pid: number): Promise<number> {
  const stat = await readProcStat(pid);
  if (!stat) throw new Error(`process ${pid} under test is gone`);
  return ownCpuSeconds(stat);
}
