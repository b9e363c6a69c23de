import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { nextStepRate, stepPasses, type LadderLimits, type LadderPlan } from './placement-ladder';
import { pgbenchLoadArgs } from './placement-pgbench';
import { percentile } from './stats';

const run = promisify(execFile);

/**
 * The tail reference of the placement benchmark: pgbench's TPC-B-like transaction at fixed
 * arrival rates (`-R`), climbed with the placement headline's own ladder and pass rule, so the
 * two headlines are the same kind of number — the highest rate held with p99 ≤ 20 ms — and their
 * ratio compares the engine with what PostgreSQL itself holds at that tail on this machine.
 */

export interface PgbenchRateStep {
  readonly targetRatePerSec: number;
  readonly durationSec: number;
  /** Transactions pgbench ran to the end. */
  readonly executed: number;
  /** Scheduled more than the latency limit late, so never sent (`-L` with `-R`). */
  readonly skipped: number;
  readonly failed: number;
  readonly achievedRatePerSec: number;
  /** Failed and skipped transactions, in percent of all scheduled: the ladder's error share. */
  readonly errorPct: number;
  /** Executed transactions over the latency limit, in percent of all scheduled. */
  readonly latePct: number;
  readonly lateMs: number;
  /** Latency of executed transactions from their scheduled start (schedule lag included). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** How late pgbench started transactions behind their schedule, p99. */
  readonly scheduleLagP99Ms: number;
}

/** A per-transaction log line whose time is not a number: what became of the transaction. */
const FAILED_OUTCOMES = new Set(['failed', 'serialization', 'deadlock', 'other']);

/**
 * Reads pgbench's per-transaction log (`--log`; every thread's file concatenated):
 * `client_id transaction_no time script_no time_epoch time_us schedule_lag [retries]`, times in
 * microseconds. With `-R`, `time` already runs from the transaction's scheduled start, so it
 * includes `schedule_lag` (pgbench's own summary averages the same figure): the latency a client
 * arriving on schedule would see, with no coordinated omission. `time` reads `skipped` for a
 * transaction `-L` dropped and `failed` (or its cause) for one that failed.
 */
export function summarisePgbenchLog(
  log: string,
  step: { readonly targetRatePerSec: number; readonly durationSec: number; readonly lateMs: number },
): PgbenchRateStep {
  const latenciesUs: number[] = [];
  const lagsUs: number[] = [];
  let skipped = 0;
  let failed = 0;
  for (const line of log.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 7) continue;
    const time = fields[2]!;
    if (time === 'skipped') skipped++;
    else if (FAILED_OUTCOMES.has(time)) failed++;
    else {
      const latencyUs = Number(time);
      const lagUs = Number(fields[6]);
      if (!Number.isFinite(latencyUs) || !Number.isFinite(lagUs))
        throw new Error(`pgbench log line not understood: ${line}`);
      latenciesUs.push(latencyUs);
      lagsUs.push(lagUs);
    }
  }
  const sortedMs = Float64Array.from(latenciesUs, (us) => us / 1000).sort();
  const lagsMs = Float64Array.from(lagsUs, (us) => us / 1000).sort();
  const executed = sortedMs.length;
  const scheduled = executed + skipped + failed;
  let late = 0;
  for (let i = executed - 1; i >= 0 && sortedMs[i]! > step.lateMs; i--) late++;
  const share = (count: number) => (scheduled > 0 ? (count / scheduled) * 100 : 0);
  return {
    targetRatePerSec: step.targetRatePerSec,
    durationSec: step.durationSec,
    executed,
    skipped,
    failed,
    achievedRatePerSec: executed / step.durationSec,
    // A step that ran nothing has failed entirely, not passed with no errors.
    errorPct: scheduled > 0 ? share(skipped + failed) : 100,
    latePct: share(late),
    lateMs: step.lateMs,
    p50Ms: percentile(sortedMs, 50),
    p99Ms: percentile(sortedMs, 99),
    maxMs: executed > 0 ? sortedMs[executed - 1]! : Number.NaN,
    scheduleLagP99Ms: percentile(lagsMs, 99),
  };
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

export function describePgbenchStep(step: PgbenchRateStep): string {
  return (
    `${step.targetRatePerSec}/s: achieved ${step.achievedRatePerSec.toFixed(0)}/s, ` +
    `p50 ${fixed(step.p50Ms)} ms, p99 ${fixed(step.p99Ms)} ms, max ${fixed(step.maxMs)} ms, ` +
    `late (over ${step.lateMs} ms) ${fixed(step.latePct, 2)}%, skipped ${step.skipped}, failed ${step.failed} ` +
    `(errors ${step.errorPct.toFixed(2)}%), schedule lag p99 ${fixed(step.scheduleLagP99Ms)} ms`
  );
}

export interface PgbenchRateOptions {
  readonly pgbench: string;
  /** A database `pgbench -i` has initialised. */
  readonly url: string;
  readonly clients: number;
  readonly threads: number;
  readonly durationSec: number;
  readonly ratePerSec: number;
  /** `-L`: the pass rule's p99 limit, so pgbench skips what could no longer meet it. */
  readonly lateMs: number;
}

/** Longest a step may take beyond its duration (connections, a slow exit) before it is killed. */
const STEP_SLACK_MS = 60_000;

export async function runPgbenchAtRate(options: PgbenchRateOptions): Promise<PgbenchRateStep> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'updown-pgbench-'));
  try {
    await run(
      options.pgbench,
      [
        '-R',
        String(options.ratePerSec),
        '-L',
        String(options.lateMs),
        ...pgbenchLoadArgs(options),
        '--log',
        `--log-prefix=${path.join(dir, 'tx')}`,
        options.url,
      ],
      { timeout: options.durationSec * 1000 + STEP_SLACK_MS },
    );
    // One file per thread: tx.<pid>, tx.<pid>.1, …
    const files = (await readdir(dir)).filter((name) => name.startsWith('tx.'));
    const logs = await Promise.all(files.map((name) => readFile(path.join(dir, name), 'utf8')));
    return summarisePgbenchLog(logs.join('\n'), {
      targetRatePerSec: options.ratePerSec,
      durationSec: options.durationSec,
      lateMs: options.lateMs,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface PgbenchTail {
  /** Achieved rate of the highest passing step; 0 when none passed. */
  readonly headlinePerSec: number;
  readonly steps: readonly (PgbenchRateStep & { readonly pass: boolean })[];
}

/** The placement headline's ladder and rule, applied to pgbench. */
export async function runPgbenchTailLadder(
  options: Omit<PgbenchRateOptions, 'ratePerSec' | 'lateMs'> & {
    readonly plan: LadderPlan;
    readonly limits: LadderLimits;
    readonly log: (message: string) => void;
    /** Runs one step; pgbench itself unless a test stands in for it. */
    readonly runStep?: (options: PgbenchRateOptions) => Promise<PgbenchRateStep>;
  },
): Promise<PgbenchTail> {
  const runStep = options.runStep ?? runPgbenchAtRate;
  const steps: (PgbenchRateStep & { pass: boolean })[] = [];
  for (;;) {
    const rate = nextStepRate(
      steps.map((s) => ({ ratePerSec: s.targetRatePerSec, pass: s.pass })),
      options.plan,
    );
    if (rate === undefined) break;
    const step = await runStep({ ...options, ratePerSec: rate, lateMs: options.limits.p99MsMax });
    const pass = stepPasses(step, options.limits);
    steps.push({ ...step, pass });
    options.log(`pgbench ${pass ? 'pass' : 'FAIL'} ${describePgbenchStep(step)}`);
  }
  const best = steps
    .filter((s) => s.pass)
    .reduce<PgbenchRateStep | undefined>(
      (a, s) => (!a || s.targetRatePerSec > a.targetRatePerSec ? s : a),
      undefined,
    );
  return { headlinePerSec: best ? Math.round(best.achievedRatePerSec) : 0, steps };
}
