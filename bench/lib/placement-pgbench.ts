import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The reference of the placement benchmark: pgbench's built-in TPC-B-like script (three updates,
 * a select and an insert in one transaction per client round trip) on the same PostgreSQL server,
 * the closest physical limit for "one small write transaction per request".
 */

export interface PgbenchOptions {
  readonly pgbench: string;
  /** A libpq connection URI of an empty database; pgbench creates its tables there. */
  readonly url: string;
  readonly scale: number;
  readonly clients: number;
  readonly threads: number;
  readonly durationSec: number;
  /** Called after initialisation, right before the measured run, and right after it (CPU meters). */
  readonly beforeRun?: () => Promise<void>;
  readonly afterRun?: () => Promise<void>;
}

export interface PgbenchResult {
  readonly tps: number;
  /** Transactions processed, when pgbench printed the count. */
  readonly transactions: number | null;
  readonly latencyAverageMs: number | null;
  readonly failed: number | null;
}

/** Longest pgbench may take beyond its own duration (initialisation included) before it is killed. */
const PGBENCH_SLACK_MS = 120_000;

export async function runPgbench(options: PgbenchOptions): Promise<PgbenchResult> {
  const timeout = options.durationSec * 1000 + PGBENCH_SLACK_MS;
  await run(options.pgbench, ['-i', '-q', '-s', String(options.scale), options.url], { timeout });
  await options.beforeRun?.();
  const { stdout } = await run(options.pgbench, [...pgbenchLoadArgs(options), options.url], { timeout });
  await options.afterRun?.();
  return parsePgbenchOutput(stdout);
}

/** The load every pgbench run here shares: its clients, threads and duration, prepared statements. */
export function pgbenchLoadArgs(options: {
  readonly clients: number;
  readonly threads: number;
  readonly durationSec: number;
}): string[] {
  const { clients, threads, durationSec } = options;
  return ['-c', String(clients), '-j', String(threads), '-T', String(durationSec), '-M', 'prepared'];
}

/** Reads pgbench's summary; throws when it has no `tps =` line (pgbench failed or changed format). */
export function parsePgbenchOutput(stdout: string): PgbenchResult {
  const tps =
    /^tps = ([\d.]+) \(without initial connection time\)/m.exec(stdout) ?? /^tps = ([\d.]+)/m.exec(stdout);
  if (!tps) throw new Error(`pgbench printed no tps line:\n${stdout}`);
  const latency = /^latency average = ([\d.]+) ms/m.exec(stdout);
  const failed = /^number of failed transactions: (\d+)/m.exec(stdout);
  const processed = /^number of transactions actually processed: (\d+)/m.exec(stdout);
  return {
    tps: Number(tps[1]),
    transactions: processed ? Number(processed[1]) : null,
    latencyAverageMs: latency ? Number(latency[1]) : null,
    failed: failed ? Number(failed[1]) : null,
  };
}
