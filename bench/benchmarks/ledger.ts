import { transfer, transferBatch, verifyLedger, type LedgerReport } from '@updown/wallet';
import type { BenchDatabase } from '../lib/environment';
import { bareAccountIds, createBareLedger, writeBareBatch } from '../lib/ledger-bare';
import { runClosedLoop } from '../lib/ledger-load';
import {
  bestWithinLimit,
  shapeLabel,
  stepLine,
  summarizeStep,
  withinLimit,
  type StepShape,
  type StepSummary,
} from '../lib/ledger-stats';
import { openBenchUsers } from '../lib/ledger-setup';
import { bareBatch, benchTransfer } from '../lib/ledger-workload';
import type { Benchmark, BenchContext, BenchResult } from '../lib/types';

/**
 * ledger: internal transfers per second through the ledger's own API (`transfer`, `transferBatch`),
 * no HTTP, every transfer touching a house account, at per-transfer p99 ≤ 10 ms. Each ladder of
 * steps (one batch size, rising transactions in flight) stops at its first step over the limit;
 * the value is the best step within it. The reference runs the same ladders in the same run,
 * step by step alternating with the engine: the same rows written by bare SQL into a copy of the
 * tables without checks or triggers (see `ledger-bare.ts`).
 */

const P99_MS_MAX = 10;
const GOAL_TRANSFERS_PER_SEC = 20_000;

interface Sizes {
  readonly users: number;
  readonly warmupMs: number;
  readonly windowMs: number;
  /** Each ladder: one batch size (1 = `transfer`, one per transaction) and its concurrency steps. */
  readonly ladders: readonly { readonly batchSize: number; readonly concurrency: readonly number[] }[];
}

const FULL: Sizes = {
  users: 10_000,
  warmupMs: 500,
  windowMs: 2_000,
  ladders: [
    { batchSize: 1, concurrency: [1, 2, 4, 8, 16] },
    { batchSize: 50, concurrency: [1, 2, 4, 8] },
    { batchSize: 100, concurrency: [1, 2, 4, 8] },
    { batchSize: 250, concurrency: [1, 2, 4] },
    { batchSize: 500, concurrency: [1, 2, 4] },
  ],
};

const QUICK: Sizes = {
  users: 1_000,
  warmupMs: 100,
  windowMs: 400,
  ladders: [
    { batchSize: 1, concurrency: [1, 4] },
    { batchSize: 100, concurrency: [1, 2] },
    { batchSize: 250, concurrency: [1] },
  ],
};

interface Runner {
  readonly label: string;
  step(shape: StepShape): Promise<StepSummary>;
}

function engineRunner(database: BenchDatabase, owners: readonly string[], sizes: Sizes): Runner {
  let nextSeq = 0;
  const task = (batchSize: number) => async () => {
    const first = nextSeq;
    nextSeq += batchSize;
    if (batchSize === 1) {
      await database.db.transaction().execute((trx) => transfer(trx, benchTransfer(owners, 'engine', first)));
      return 1;
    }
    const commands = Array.from({ length: batchSize }, (_, i) => benchTransfer(owners, 'engine', first + i));
    await database.db.transaction().execute((trx) => transferBatch(trx, commands));
    return batchSize;
  };
  return {
    label: 'engine',
    async step(shape) {
      const measured = await runClosedLoop({ ...shape, ...timing(sizes), task: task(shape.batchSize) });
      return summarizeStep(shape, measured);
    },
  };
}

function bareRunner(
  database: BenchDatabase,
  owners: readonly string[],
  accountIds: ReadonlyMap<string, number>,
  sizes: Sizes,
): Runner {
  let nextSeq = 0;
  const task = (batchSize: number) => async () => {
    const first = nextSeq;
    nextSeq += batchSize;
    await writeBareBatch(database.pool, bareBatch(owners, 'bare', first, batchSize, accountIds));
    return batchSize;
  };
  return {
    label: 'bare',
    async step(shape) {
      const measured = await runClosedLoop({ ...shape, ...timing(sizes), task: task(shape.batchSize) });
      return summarizeStep(shape, measured);
    },
  };
}

function timing(sizes: Sizes) {
  return { warmupMs: sizes.warmupMs, windowMs: sizes.windowMs };
}

/**
 * Climbs the ladders with both runners, alternating engine and bare step by step so a burst of
 * noise from the machine falls on both. A runner leaves a ladder at its first step over the limit
 * (more transactions in flight only lengthen the queue) but starts every ladder, so the report
 * shows what each batch size does even where none is within the limit.
 */
async function climb(
  runners: readonly Runner[],
  sizes: Sizes,
  log: (message: string) => void,
): Promise<Map<string, StepSummary[]>> {
  const steps = new Map(runners.map((runner) => [runner.label, [] as StepSummary[]]));
  for (const ladder of sizes.ladders) {
    const climbing = new Set(runners);
    for (const concurrency of ladder.concurrency) {
      for (const runner of runners) {
        if (!climbing.has(runner)) continue;
        const summary = await runner.step({ batchSize: ladder.batchSize, concurrency });
        steps.get(runner.label)!.push(summary);
        log(`${runner.label} ${stepLine(summary)}`);
        if (!withinLimit(summary, P99_MS_MAX)) climbing.delete(runner);
      }
      if (climbing.size === 0) break;
    }
  }
  return steps;
}

/** The fastest step whatever its latency: what the ledger does when the limit is out of reach. */
function fastest(steps: readonly StepSummary[]): StepSummary | null {
  return bestWithinLimit(steps, Number.POSITIVE_INFINITY);
}

function describeBest(best: StepSummary | null): string {
  if (best === null) return `none within p99 ${P99_MS_MAX} ms`;
  const how = best.batchSize === 1 ? 'one transfer per transaction' : `${best.batchSize} per transaction`;
  return `${shapeLabel(best)} (${how}, ${best.concurrency} in flight): ${Math.round(best.transfersPerSec)}/s, p50 ${best.p50Ms.toFixed(1)} ms, p99 ${best.p99Ms.toFixed(1)} ms`;
}

function verifyLine(report: LedgerReport): string {
  const head = `${report.entries} entries, ${report.postings} postings`;
  if (report.ok) return `clean (${head})`;
  return `${report.violations.length + report.truncated} violations (${head}): ${report.violations
    .slice(0, 3)
    .map((v) => `${v.check} ${v.detail}`)
    .join('; ')}`;
}

async function run({ env, quick, log }: BenchContext): Promise<BenchResult> {
  const sizes = quick ? QUICK : FULL;
  const poolMax = Math.max(...sizes.ladders.flatMap((ladder) => ladder.concurrency));
  const database = await env.createDatabase({ max: poolMax });
  try {
    log(`opening and funding ${sizes.users} users`);
    const owners = await openBenchUsers(database.db, sizes.users);
    await createBareLedger(database.pool);
    const accountIds = await bareAccountIds(database.pool);
    const steps = await climb(
      [engineRunner(database, owners, sizes), bareRunner(database, owners, accountIds, sizes)],
      sizes,
      log,
    );
    const engineSteps = steps.get('engine')!;
    const bareSteps = steps.get('bare')!;
    const best = bestWithinLimit(engineSteps, P99_MS_MAX);
    const bestUnbatched = bestWithinLimit(
      engineSteps.filter((s) => s.batchSize === 1),
      P99_MS_MAX,
    );
    const bareBest = bestWithinLimit(bareSteps, P99_MS_MAX);
    const bareBestUnbatched = bestWithinLimit(
      bareSteps.filter((s) => s.batchSize === 1),
      P99_MS_MAX,
    );
    const fastestEngine = fastest(engineSteps);
    const fastestBare = fastest(bareSteps);
    log('verifying the ledger');
    const report = await verifyLedger(database.db);
    const value = Math.round(best?.transfersPerSec ?? 0);
    const reference = bareBest === null ? null : Math.round(bareBest.transfersPerSec);
    return {
      name: 'ledger',
      value,
      unit: 'transfers/s',
      goal: `>= ${GOAL_TRANSFERS_PER_SEC} transfers/s batched at p99 <= ${P99_MS_MAX} ms, ledger verifies clean`,
      reference_name: 'bare SQL insert of the same rows, no checks or triggers (transfers/s)',
      reference_value: reference,
      ratio: reference ? Number((value / reference).toFixed(3)) : null,
      pass: report.ok && best !== null && best.batchSize > 1 && value >= GOAL_TRANSFERS_PER_SEC,
      setup: {
        transfers:
          'settlement on demo money, alternating a loss (demo_in_play → house_demo, 2 postings) and a win (demo_in_play → demo, house_demo → demo, 3 postings); every transfer posts to one of 16 house_demo shards, chosen from its key',
        users: sizes.users,
        best: describeBest(best),
        best_unbatched: describeBest(bestUnbatched),
        bare_best: describeBest(bareBest),
        bare_best_unbatched: describeBest(bareBestUnbatched),
        // The issue's comparison: the ledger, batched as its callers batch, against bare SQL doing
        // the same writes one transfer per transaction; and unbatched against unbatched.
        ratio_to_bare_unbatched:
          best && bareBestUnbatched
            ? Number((best.transfersPerSec / bareBestUnbatched.transfersPerSec).toFixed(3))
            : null,
        ratio_unbatched:
          bestUnbatched && bareBestUnbatched
            ? Number((bestUnbatched.transfersPerSec / bareBestUnbatched.transfersPerSec).toFixed(3))
            : null,
        fastest_any_latency: describeBest(fastestEngine),
        bare_fastest_any_latency: describeBest(fastestBare),
        // Still a comparison when the limit is out of reach for both (a slow or busy machine).
        ratio_fastest_any_latency:
          fastestEngine && fastestBare
            ? Number((fastestEngine.transfersPerSec / fastestBare.transfersPerSec).toFixed(3))
            : null,
        latency:
          "per transfer = its transaction's, begin to commit, measured by the caller; every transfer of a batch has its batch's latency",
        method: `closed loop: N transactions in flight, each on its own pooled connection (pool ${poolMax}); steps of ${sizes.windowMs / 1000} s after ${sizes.warmupMs / 1000} s warm-up; each ladder (batch size) climbs until p99 > ${P99_MS_MAX} ms; engine and bare steps alternate`,
        steps_engine: engineSteps.map(stepLine).join(', '),
        steps_bare: bareSteps.map(stepLine).join(', '),
        reference:
          'the same entries, postings and balance updates in one plain SQL statement per transaction (accounts locked in id order, as any concurrent writer must), into copies of the ledger tables (same columns, indexes and storage parameters; its postings have no foreign keys) without check constraints or triggers; no validation, hashing or idempotency look-up',
        load_generator: 'the same Node process as the ledger calls, sharing the cores with PostgreSQL',
        synchronous_commit: env.server.synchronous_commit ?? 'unknown',
        fsync: env.server.fsync ?? 'unknown',
        ledger_verify: verifyLine(report),
      },
    };
  } finally {
    await database.drop();
  }
}

export const ledger: Benchmark = {
  name: 'ledger',
  inDefaultRun: true,
  run,
};
