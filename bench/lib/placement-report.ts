import type { StepResult } from './open-model-load';
import { describeActivity, describeCounters } from './pg-activity';
import type { CapacityStep } from './placement-capacity';
import { describeJobsAndSlow, type ProbeReading } from './placement-probe';

/**
 * How the placement benchmark writes its steps: one line per step with its latencies and, from
 * the probe, where the time and the CPU went. Pure, so the wording is tested apart from any load.
 */

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

export function describeOpenStep(step: StepResult): string {
  return (
    `${step.targetRatePerSec}/s: achieved ${step.achievedRatePerSec.toFixed(0)}/s, ` +
    `p50 ${fixed(step.p50Ms)} ms, p99 ${fixed(step.p99Ms)} ms, max ${fixed(step.maxMs)} ms, ` +
    `${fixed(step.slowPct, 2)}% over ${step.slowMs} ms, errors ${step.errorPct.toFixed(2)}%` +
    (step.errors > 0 ? ` ${JSON.stringify(step.errorKinds)}` : '') +
    `, send lag p99 ${fixed(step.sendLagP99Ms)} ms`
  );
}

export function describeCapacityStep(step: CapacityStep): string {
  return (
    `${step.inFlight} in flight: ${step.throughputPerSec.toFixed(0)}/s, p50 ${fixed(step.p50Ms)} ms, ` +
    `p99 ${fixed(step.p99Ms)} ms, max ${fixed(step.maxMs)} ms, errors ${step.errorPct.toFixed(2)}%`
  );
}

/** CPU microseconds per placement, and CPU as a percentage of one core over the window. */
export interface CpuPerPlacement {
  readonly placements: number;
  readonly platformUs: number;
  /** Every PostgreSQL process except the harness's own sampler. */
  readonly postgresUs: number | null;
  /** Only the client backends of the database under test. */
  readonly postgresBackendsUs: number | null;
  readonly generatorUs: number;
  readonly platformCorePct: number;
  readonly postgresCorePct: number | null;
  readonly generatorCorePct: number;
  /** Per platform process (distributed layout), microseconds per placement. */
  readonly perProcessUs: Readonly<Record<string, number>>;
  /**
   * The same less what the processes burn idle over as long a window (timers, the price feed, the
   * outbox poll): the cost of the placements themselves. Absent without an idle reading.
   */
  readonly netOfIdle?: { readonly platformUs: number; readonly postgresUs: number | null };
}

const postgresWork = (reading: ProbeReading) =>
  reading.postgres ? reading.postgres.total - reading.postgres.harness : null;

/** The database's work per placement over the window, when counted. */
export function describeDatabaseWork(reading: ProbeReading, placements: number): string {
  return reading.database ? `PostgreSQL ${describeCounters(reading.database, placements)}` : '';
}

export function cpuPerPlacement(
  reading: ProbeReading,
  placements: number,
  idle?: ProbeReading,
): CpuPerPlacement {
  const per = (seconds: number) => (placements > 0 ? Math.round((seconds * 1e6) / placements) : 0);
  const pct = (seconds: number) => Math.round((seconds / reading.wallSeconds) * 1000) / 10;
  const postgresSeconds = postgresWork(reading);
  const pg = reading.postgres;
  let netOfIdle: CpuPerPlacement['netOfIdle'];
  if (idle && idle.wallSeconds > 0) {
    const scale = reading.wallSeconds / idle.wallSeconds;
    const idlePostgres = postgresWork(idle);
    netOfIdle = {
      platformUs: per(reading.platformCpuSeconds - idle.platformCpuSeconds * scale),
      postgresUs:
        postgresSeconds === null || idlePostgres === null
          ? null
          : per(postgresSeconds - idlePostgres * scale),
    };
  }
  return {
    ...(netOfIdle ? { netOfIdle } : {}),
    placements,
    platformUs: per(reading.platformCpuSeconds),
    postgresUs: postgresSeconds === null ? null : per(postgresSeconds),
    postgresBackendsUs: pg ? per(pg.backends) : null,
    generatorUs: per(reading.generatorCpuSeconds),
    platformCorePct: pct(reading.platformCpuSeconds),
    postgresCorePct: postgresSeconds === null ? null : pct(postgresSeconds),
    generatorCorePct: pct(reading.generatorCpuSeconds),
    perProcessUs: Object.fromEntries(
      Object.entries(reading.processes).map(([name, p]) => [name, per(p.cpuSeconds)]),
    ),
  };
}

export function describeCpu(cpu: CpuPerPlacement): string {
  const processes = Object.entries(cpu.perProcessUs);
  const split = processes.length > 1 ? ` (${processes.map(([n, us]) => `${n} ${us}`).join(', ')})` : '';
  const postgres =
    cpu.postgresUs === null
      ? 'PostgreSQL not visible'
      : `PostgreSQL ${cpu.postgresUs} µs (backends ${cpu.postgresBackendsUs}) = ${cpu.postgresCorePct}% of a core`;
  const net = cpu.netOfIdle
    ? `; net of idle: platform ${cpu.netOfIdle.platformUs} µs, PostgreSQL ${cpu.netOfIdle.postgresUs ?? '?'} µs`
    : '';
  return (
    `CPU per placement: platform ${cpu.platformUs} µs${split} = ${cpu.platformCorePct}% of a core; ${postgres}; ` +
    `generator ${cpu.generatorUs} µs = ${cpu.generatorCorePct}% of a core${net}`
  );
}

/** What the processes burn with no load at all, as a percentage of one core. */
export function describeIdle(idle: ProbeReading): string {
  const pct = (seconds: number) => `${Math.round((seconds / idle.wallSeconds) * 1000) / 10}%`;
  const processes = Object.entries(idle.processes)
    .map(([name, p]) => `${name} ${pct(p.cpuSeconds)}`)
    .join(', ');
  const postgres = postgresWork(idle);
  return `idle for ${idle.wallSeconds.toFixed(1)} s: ${processes}, PostgreSQL ${postgres === null ? '?' : pct(postgres)} of a core`;
}

/** Event loop, GC, pool and server-side latency of each platform process, and PostgreSQL's waits. */
export function describeStalls(reading: ProbeReading): string {
  const processes = Object.entries(reading.processes).map(([name, p]) => {
    const served =
      p.placementsServed > 0
        ? `, server-side over 25 ms ${((p.placementsServedOver25ms / p.placementsServed) * 100).toFixed(2)}%`
        : '';
    const kinds = Object.entries(p.gcByKindMs)
      .map(([kind, ms]) => `${kind} ${Math.round(ms)}`)
      .join(', ');
    return (
      `${name}: loop p99 ${fixed(p.loopP99Ms)} ms max ${fixed(p.loopMsMax)} ms, ` +
      `GC ${fixed(p.gcPauseMs)} ms (${kinds ? `${kinds}; ` : ''}longest ${fixed(p.gcPauseMsMax)} ms), ` +
      `pool waits mean ${fixed(p.poolWaitMeanMs, 2)} ms, ${p.poolWaitsOver5ms} over 5 ms${served}` +
      describeJobsAndSlow(p)
    );
  });
  const activity = reading.activity ? `; PostgreSQL ${describeActivity(reading.activity)}` : '';
  return `${processes.join('; ')}${activity}`;
}
