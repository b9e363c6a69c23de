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
  readonly loopMaxMs: number;
  readonly gcPauseMs: number;
  readonly gcPauseMaxMs: number;
  /** Pauses by kind, milliseconds. */
  readonly gcByKindMs: Readonly<Record<string, number>>;
  readonly poolCheckouts: number;
  readonly poolWaitMeanMs: number;
  /** Checkouts that waited more than 5 ms. */
  readonly poolWaitsOver5ms: number;
  /** Placements this process answered, and how many took the server over 25 ms (arrival to last byte). */
  readonly placementsServed: number;
  readonly placementsServedOver25ms: number;
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
  return {
    cpuSeconds: end.cpuSeconds - start.cpuSeconds,
    loopP99Ms: promSum(end.metrics, 'updown_event_loop_delay_seconds', { quantile: '0.99' }) * 1000,
    loopMaxMs: promSum(end.metrics, 'updown_event_loop_delay_seconds', { quantile: '1' }) * 1000,
    gcPauseMs: Object.values(gcByKindMs).reduce((a, b) => a + b, 0),
    gcPauseMaxMs: promSum(end.metrics, 'updown_gc_pause_max_seconds') * 1000,
    gcByKindMs,
    poolCheckouts: checkouts,
    poolWaitMeanMs:
      checkouts > 0 ? (delta('updown_db_pool_checkout_wait_seconds_sum') * 1000) / checkouts : 0,
    poolWaitsOver5ms: checkouts - delta('updown_db_pool_checkout_wait_seconds_bucket', { le: '0.005' }),
    placementsServed: served,
    placementsServedOver25ms: served - servedWithin25ms,
  };
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
