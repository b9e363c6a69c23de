/**
 * PostgreSQL CPU per lone placement, next to pgbench's per TPC-B transaction on the same server,
 * and the lone placement's wall time (call to answer, no HTTP).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx scripts/lone-placement-cpu.ts [placements]
 *
 * Placements go one at a time through `createPlaceTrade` on a pool of one connection, so every
 * statement runs on one backend whose CPU (`/proc/<pid>/stat`, utime + stime) is read before and
 * after; pgbench (`-c 1 -M prepared`, scale 1) runs on a scratch database and its backend is read
 * the same way. Both need the server on this machine. CPU is counted in clock ticks (10 ms), so
 * runs last a few seconds; on a busy machine the numbers are an indication, not a measurement.
 */
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { createDb, systemClock } from '@updown/runtime';
import { createPlaceTrade } from '@updown/order';
import { fundedTrader } from '@updown/order/testing';
import { openBenchEnvironment, type BenchDatabase } from '../bench/lib/environment';
import { clockTicksPerSecond, readProcStat } from '../bench/lib/proc-stat';

const run = promisify(execFile);
const TRADERS = 20;
const WARM_UP = 50;
/** How long pgbench's backend is measured, after two seconds of warm-up. */
const PGBENCH_SECONDS = 8;

async function backendTicks(pid: number): Promise<number> {
  const stat = await readProcStat(pid);
  if (!stat) throw new Error(`backend ${pid} is not readable: is PostgreSQL on this machine?`);
  return stat.utimeTicks + stat.stimeTicks;
}

async function fundedTraders(database: BenchDatabase): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < TRADERS; i++) ids.push(await fundedTrader(database.db, 100_000_000));
  return ids;
}

interface LonePlacements {
  /** Backend CPU per placement, µs. */
  readonly cpuUs: number;
  /** Each placement's time from call to answer, ms, in the order placed. */
  readonly wallMs: readonly number[];
}

/** Backend CPU per placement, and each one's wall time, placed one after another. */
async function lonePlacements(database: BenchDatabase, count: number): Promise<LonePlacements> {
  const traders = await fundedTraders(database);
  const place = createPlaceTrade({
    db: database.db,
    prices: { get: () => ({ price: 97_000.5, atMs: Date.now() }) },
    clock: systemClock,
  });
  const placeOne = (i: number) =>
    place({
      userId: traders[i % traders.length]!,
      pair: 'BTCUSDT',
      direction: i % 2 === 0 ? 'UP' : 'DOWN',
      amountCents: 100,
      durationSec: 3600,
      accountType: 'real',
      idempotencyKey: `lone:${i}`,
    });
  for (let i = 0; i < WARM_UP; i++) await placeOne(i);
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
  const pid = rows[0]!.pid;
  const wallMs: number[] = [];
  const before = await backendTicks(pid);
  for (let i = WARM_UP; i < WARM_UP + count; i++) {
    const started = performance.now();
    await placeOne(i);
    wallMs.push(performance.now() - started);
  }
  const ticks = (await backendTicks(pid)) - before;
  return { cpuUs: (ticks / clockTicksPerSecond() / count) * 1e6, wallMs };
}

/**
 * Microseconds of backend CPU per pgbench transaction, one client, prepared. Read while pgbench
 * runs, on its backend, between two counts of `pgbench_history` (one row per transaction): the
 * postmaster's reaped-children time would also hold every other backend that exited meanwhile.
 */
async function pgbenchTransactions(pgbench: string, url: string, seconds: number): Promise<number> {
  await run(pgbench, ['-i', '-q', '-s', '1', url]);
  const running = run(pgbench, ['-n', '-c', '1', '-T', String(seconds + 4), '-M', 'prepared', url]);
  const scratch = createDb(url, { max: 1, applicationName: 'updown-cpu-sampler' });
  await sleep(2_000);
  const sample = async () => {
    const { rows } = await sql<{ pid: number; done: number }>`
      select (select pid from pg_stat_activity where datname = current_database()
                and application_name = 'pgbench') as pid,
             (select count(*) from pgbench_history)::int as done`.execute(scratch.db);
    const { pid, done } = rows[0]!;
    if (pid === null) throw new Error('pgbench has no backend: did it fail?');
    return { pid, done, ticks: await backendTicks(pid) };
  };
  const first = await sample();
  await sleep(seconds * 1_000);
  const last = await sample();
  await scratch.close();
  await running;
  if (last.pid !== first.pid) throw new Error('pgbench reconnected during the run');
  return ((last.ticks - first.ticks) / clockTicksPerSecond() / (last.done - first.done)) * 1e6;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 1000);
  if (!process.env.BENCH_DATABASE_URL) throw new Error('set BENCH_DATABASE_URL to the server to measure');
  const environment = await openBenchEnvironment((message) => console.error(message));
  try {
    const database = await environment.createDatabase({ max: 1 });
    const { cpuUs, wallMs } = await lonePlacements(database, count);
    const sorted = [...wallMs].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
    console.log(`lone placement: ${cpuUs.toFixed(0)} us of backend CPU each (${count} placements)`);
    console.log(`lone placement: wall time p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms`);
    await database.drop();
    if (environment.pgbench) {
      const empty = await environment.createEmptyDatabase();
      try {
        const pgbenchUs = await pgbenchTransactions(environment.pgbench, empty.url, PGBENCH_SECONDS);
        console.log(`pgbench TPC-B: ${pgbenchUs.toFixed(0)} us of backend CPU per transaction`);
      } finally {
        await empty.drop();
      }
    }
  } finally {
    await environment.close();
  }
}

await main();
