import { sql } from 'kysely';
import { runChecks } from './checks';
import { startCrashes, type CrashLog } from './crashes';
import { ADMIN_EMAIL, ADMIN_PASSWORD, CHAOS_SIGNING_KEY, startChaosPlatform } from './platform';
import { createRandom } from './random';
import { createDb, parseSigningKey, signingKeyFrom, waitFor } from './runtime';
import { startWorkload } from './workload';

/**
 * One chaos run: the platform as processes, the seeded workload and crash schedule, a wait for the
 * last expiries, then the checks. Returns the figures of the summary line and every failed check.
 */

export interface ChaosSize {
  readonly ops: number;
  readonly crashesMin: number;
  readonly opsBetweenCrashes: readonly [number, number];
  readonly downMs: readonly [number, number];
  readonly workers: number;
  readonly usersPerWorker: number;
}

export const QUICK: ChaosSize = {
  ops: 1_000,
  crashesMin: 4,
  opsBetweenCrashes: [100, 200],
  downMs: [200, 1_500],
  workers: 8,
  usersPerWorker: 2,
};

export const LONG: ChaosSize = {
  ops: 100_000,
  crashesMin: 50,
  opsBetweenCrashes: [1_200, 2_400],
  downMs: [200, 3_000],
  // Sixteen requests in flight keep this 2-core machine busy (about 90 ops/s without crashes).
  workers: 16,
  usersPerWorker: 2,
};

/** Trades last 60 s; settlement may also have been down at the end. Generous, as the machine is shared. */
const SETTLE_DEADLINE_MS = 300_000;
/** A run that cannot reach its crash count stops here rather than run forever. */
const OPS_CEILING_FACTOR = 3;

export interface ChaosReport {
  readonly seed: number;
  readonly ops: number;
  readonly acked: number;
  readonly unknown: number;
  readonly crashes: number;
  readonly crashesByTarget: Record<string, number>;
  readonly opsByKind: Record<string, number>;
  readonly refused: Record<string, number>;
  readonly trades: number;
  readonly lostCents: number;
  readonly duplicatedCents: number;
  readonly failures: string[];
  readonly durationMs: number;
}

export function summaryLine(report: ChaosReport): string {
  return `chaos: ${report.ops} operations, ${report.crashes} crashes, lost ${report.lostCents} cents, duplicated ${report.duplicatedCents} cents, seed ${report.seed}`;
}

export async function runChaos(
  seed: number,
  size: ChaosSize,
  log: (line: string) => void,
): Promise<ChaosReport> {
  const started = Date.now();
  const random = createRandom(seed);
  const platform = await startChaosPlatform();
  log(`platform up after ${Date.now() - started} ms; gateway ${platform.gatewayUrl}`);
  const db = createDb(platform.databaseUrl, { max: 2 });
  try {
    // The workers start before the crash schedule exists (it counts their ops), hence the holder.
    const schedule: { crashes?: CrashLog } = {};
    const workload = await startWorkload({
      gatewayUrl: platform.gatewayUrl,
      adminEmail: ADMIN_EMAIL,
      adminPassword: ADMIN_PASSWORD,
      workers: size.workers,
      usersPerWorker: size.usersPerWorker,
      random: random.fork(1),
      keepGoing: (ops) =>
        schedule.crashes?.error() === undefined &&
        ops < size.ops * OPS_CEILING_FACTOR &&
        (ops < size.ops || (schedule.crashes?.total() ?? 0) < size.crashesMin),
    });
    const crashes = startCrashes(
      platform,
      random.fork(2),
      () => workload.stats.ops,
      { opsBetween: size.opsBetweenCrashes, downMs: size.downMs },
      log,
    );
    schedule.crashes = crashes;
    const progress = setInterval(() => {
      const s = workload.stats;
      log(
        `progress: ${s.ops} ops (${s.acked} acknowledged, ${s.unknown} unknown at first), ${crashes.total()} crashes`,
      );
    }, 30_000);
    try {
      await workload.done;
    } catch (error) {
      // A workload stuck on a service that never came back: the restart's failure or the service's
      // own exit (with its last output) is the cause worth reading.
      await crashes.stop();
      const crashError = crashes.error();
      const exits = platform.unexpectedExits();
      const causes = [
        ...(crashError ? [`a restart failed: ${crashError.message}`] : []),
        ...exits.map((exit) => `a service died on its own: ${exit}`),
      ];
      if (causes.length > 0) throw new Error(`${String(error)}\nafter ${causes.join('\n')}`);
      throw error;
    } finally {
      clearInterval(progress);
      await crashes.stop();
    }
    const crashError = crashes.error();
    if (crashError) throw crashError;
    log(`workload done after ${Date.now() - started} ms; waiting for the last expiries`);

    await waitFor(
      async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from trades where status = 'pending'`.execute(db.db);
        return rows[0]!.n === 0;
      },
      { timeoutMs: SETTLE_DEADLINE_MS, intervalMs: 1_000, what: `every trade settled\n${platform.report()}` },
    );
    const { keySet } = signingKeyFrom(parseSigningKey(CHAOS_SIGNING_KEY));
    const checked = await runChecks(db.db, workload.history, workload.userIds, keySet);
    log(`evidence: ${checked.receipts} receipts and every tick chain verified`);
    const failures = [...checked.failures];
    const exits = platform.unexpectedExits();
    if (exits.length > 0)
      failures.push(`services that died on their own (${exits.length}): ${exits.join('\n')}`);
    if (crashes.total() < size.crashesMin)
      failures.push(`only ${crashes.total()} crashes, wanted ${size.crashesMin}`);
    for (const [target, n] of crashes.byTarget) if (n === 0) failures.push(`no crash of ${target}`);
    if (workload.stats.ops < size.ops)
      failures.push(`only ${workload.stats.ops} operations, wanted ${size.ops}`);
    return {
      seed,
      ops: workload.stats.ops,
      acked: workload.stats.acked,
      unknown: workload.stats.unknown,
      crashes: crashes.total(),
      crashesByTarget: Object.fromEntries(crashes.byTarget),
      opsByKind: Object.fromEntries(workload.stats.byKind),
      refused: Object.fromEntries(workload.stats.refused),
      trades: checked.trades,
      lostCents: checked.lostCents,
      duplicatedCents: checked.duplicatedCents,
      failures,
      durationMs: Date.now() - started,
    };
  } finally {
    await db.close();
    await platform.stop();
  }
}
