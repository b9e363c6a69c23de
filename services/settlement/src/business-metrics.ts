import { sql, type Kysely } from 'kysely';
import {
  Counter,
  Gauge,
  meterJob,
  systemClock,
  type Clock,
  type Database,
  type Logger,
  type Registry,
} from '@updown/runtime';
import {
  exposureCents,
  listPairRisks,
  windowPnl,
  openExposure,
  type OpenExposureRow,
  bookOf,
} from '@updown/order';
import { houseResult, verifyLedger, type LedgerReport } from '@updown/wallet';

/**
 * The business figures operators watch beside the technical ones: money at stake in open trades,
 * the house's result, and whether the ledger still proves its invariants.
 *
 * Exposure and house P/L are read from PostgreSQL when Prometheus scrapes, so they are never stale
 * and cost nothing between scrapes. Ledger verification reads the whole ledger, so it runs on a
 * timer instead and its outcome is kept in gauges for the scrapes in between.
 *
 * A verification is heavy periodic work sharing the database with trading: over a ledger of a
 * million postings it keeps a PostgreSQL core busy for about 3 s, and on the 2-core test machine a
 * small write transaction's p99 went from 9 ms to 16–30 ms meanwhile. So it runs every 10 minutes
 * (twice in the 30 minutes after which `LedgerVerificationStale` alerts: one failed run does not alert,
 * two do, like `LedgerVerificationFailing`) and never on more than one core (no parallel workers).
 */

export interface BusinessMetricsOptions {
  /** Time between ledger verifications; the first runs one interval after start. */
  readonly ledgerVerifyIntervalMs?: number;
  /** Longest a scrape waits for one of its queries (PostgreSQL cancels the query at the same limit). */
  readonly queryTimeoutMs?: number;
}

export const BUSINESS_METRICS_DEFAULTS = Object.freeze({
  ledgerVerifyIntervalMs: 10 * 60_000,
  queryTimeoutMs: 2_000,
});

/** Most (pair, direction, account) series of the exposure gauge: a few hundred pairs at most, times four. */
const EXPOSURE_SERIES_MAX = 4_000;
/** Violations written to the log per failed verification; the count is in the gauge. */
const LOGGED_VIOLATIONS_MAX = 20;

export interface BusinessMetricsDeps {
  readonly db: Kysely<Database>;
  readonly registry: Registry;
  readonly logger: Logger;
  /**
   * Wall time for the verification timer and timestamps. Not the trading clock: Prometheus
   * compares the timestamps with its own `time()`, and a test clock that jumps ahead must not set
   * off whole-ledger scans.
   */
  readonly clock?: Clock;
  readonly options?: BusinessMetricsOptions;
}

export interface RunningBusinessMetrics {
  /** Stops the verification timer and waits for a verification in flight. */
  stop(): Promise<void>;
  /** Verifies the ledger now (after any verification in flight); undefined when it could not run. */
  verifyLedgerNow(): Promise<LedgerReport | undefined>;
}

interface Source {
  readonly db: Kysely<Database>;
  readonly logger: Logger;
  readonly queryTimeoutMs: number;
  /** The instant the breaker windows end at (the deps' clock: the wall clock in production). */
  readonly clock: Clock;
}

interface BusinessGauges {
  readonly sources: Set<Source>;
  readonly queryFailures: Counter<'metric'>;
  readonly verifyOk: Gauge;
  readonly violations: Gauge;
  readonly verifiedAt: Gauge;
  readonly verifyDuration: Gauge;
  readonly verifyFailures: Counter<'reason'>;
  /** Puts the verification gauges on the registry; until then they are absent, not a false 0. */
  publishVerification(): void;
}

const shared = new WeakMap<Registry, BusinessGauges>();

/**
 * Registers the gauges (once per registry: prom-client refuses a second metric of one name, and a
 * restarted service object shares the registry) and starts the verification timer.
 */
export function startBusinessMetrics(deps: BusinessMetricsDeps): RunningBusinessMetrics {
  const settings = { ...BUSINESS_METRICS_DEFAULTS, ...deps.options };
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ component: 'business-metrics' });
  const gauges = businessGauges(deps.registry);
  const source: Source = { db: deps.db, logger, queryTimeoutMs: settings.queryTimeoutMs, clock };
  gauges.sources.add(source);

  const verifyOnce = async (): Promise<LedgerReport | undefined> => {
    const startedAt = clock.nowMs();
    try {
      const report = await verifyOnOneCore(deps.db);
      const found = report.violations.length + report.truncated;
      gauges.verifyOk.set(report.ok ? 1 : 0);
      gauges.violations.set(found);
      if (!report.ok) {
        gauges.verifyFailures.inc({ reason: 'violations' });
        logger.error(
          { violations: report.violations.slice(0, LOGGED_VIOLATIONS_MAX), total: found },
          'ledger verification found violations',
        );
      }
      gauges.verifiedAt.set(clock.nowMs() / 1000);
      gauges.verifyDuration.set((clock.nowMs() - startedAt) / 1000);
      gauges.publishVerification();
      return report;
    } catch (error) {
      gauges.verifyFailures.inc({ reason: 'error' });
      logger.warn({ err: error }, 'ledger verification could not run');
      return undefined;
    }
  };

  // Verifications run one at a time: the timer's and any asked for directly.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = (): Promise<LedgerReport | undefined> => {
    const run = queue.then(verifyOnce);
    queue = run;
    return run;
  };
  let stopped = false;
  let cancelTimer: (() => void) | undefined;
  const arm = () => {
    if (stopped) return;
    cancelTimer = clock.setTimeout(() => {
      void meterJob('ledger verification', exclusive).finally(arm);
    }, settings.ledgerVerifyIntervalMs);
  };
  arm();

  return {
    async stop() {
      stopped = true;
      cancelTimer?.();
      gauges.sources.delete(source);
      await queue;
    },
    verifyLedgerNow: exclusive,
  };
}

/**
 * The whole-ledger verification without parallel workers: PostgreSQL would otherwise give its
 * scans and sorts more processes as the ledger grows, taking every core of a small machine from
 * the trading it runs beside. The setting is the connection's for the verification only.
 */
async function verifyOnOneCore(db: Kysely<Database>): Promise<LedgerReport> {
  return db.connection().execute(async (connection) => {
    await sql`set max_parallel_workers_per_gather = 0`.execute(connection);
    try {
      return await verifyLedger(connection);
    } finally {
      await sql`reset max_parallel_workers_per_gather`.execute(connection);
    }
  });
}

function businessGauges(registry: Registry): BusinessGauges {
  const existing = shared.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const sources = new Set<Source>();
  const queryFailures = new Counter({
    name: 'updown_business_metric_failures_total',
    help: 'Scrapes whose business query failed or timed out (the series is left out of that scrape)',
    labelNames: ['metric'],
    registers,
  });
  /** The newest service object's database: the one still running when an old one is stopping. */
  const current = () => [...sources].at(-1);

  new Gauge({
    name: 'updown_open_exposure_cents',
    help: 'Stakes of pending trades, by pair, direction and account (demo or real)',
    labelNames: ['pair', 'direction', 'account'],
    registers,
    async collect() {
      const source = current();
      const rows = source && (await scrapeQuery(source, queryFailures, 'open_exposure', openExposureRows));
      this.reset();
      for (const row of rows ?? []) {
        this.set({ pair: row.pair, direction: row.direction, account: row.account }, row.cents);
      }
    },
  });
  new Gauge({
    name: 'updown_house_pnl_cents',
    help: 'The house result since the ledger began, from the house accounts: positive is profit',
    labelNames: ['account'],
    registers,
    async collect() {
      const source = current();
      const rows = source && (await scrapeQuery(source, queryFailures, 'house_pnl', houseResult));
      this.reset();
      for (const row of rows ?? []) this.set({ account: row.account }, row.cents);
    },
  });

  // The risk controls (README "Risk controls"): one read of the books per scrape, shared by the
  // four gauges. A scrape starts every gauge's collect at once, so they share the read in flight;
  // it is dropped when it settles, so no later scrape sees its figures.
  let riskRead: Promise<RiskMetricRow[] | undefined> | undefined;
  const riskRows = () => {
    const source = current();
    if (!source) return Promise.resolve(undefined);
    if (!riskRead) {
      riskRead = scrapeQuery(source, queryFailures, 'risk', (db) =>
        readRiskMetrics(db, source.clock.nowMs()),
      ).finally(() => {
        riskRead = undefined;
      });
    }
    return riskRead;
  };
  new Gauge({
    name: 'updown_risk_exposure_cents',
    help: "The house's loss if this side of the pair wins its open real trades: their potential profit minus the other side's open stakes",
    labelNames: ['pair', 'direction'],
    registers,
    async collect() {
      const rows = await riskRows();
      this.reset();
      for (const row of rows ?? []) {
        for (const direction of ['UP', 'DOWN'] as const) {
          this.set({ pair: row.pair, direction }, row.exposure[direction]);
        }
      }
    },
  });
  new Gauge({
    name: 'updown_risk_exposure_cap_cents',
    help: 'The exposure cap of the pair and direction (absent without a cap)',
    labelNames: ['pair', 'direction'],
    registers,
    async collect() {
      const rows = await riskRows();
      this.reset();
      for (const row of rows ?? []) {
        for (const direction of ['UP', 'DOWN'] as const) {
          const cap = row.cap[direction];
          if (cap !== null) this.set({ pair: row.pair, direction }, cap);
        }
      }
    },
  });
  new Gauge({
    name: 'updown_risk_pair_suspended',
    help: '1 while the loss circuit-breaker suspends real placements on the pair, 0 otherwise',
    labelNames: ['pair'],
    registers,
    async collect() {
      const rows = await riskRows();
      this.reset();
      for (const row of rows ?? []) this.set({ pair: row.pair }, row.suspended ? 1 : 0);
    },
  });
  new Gauge({
    name: 'updown_risk_house_pnl_window_cents',
    help: "The house's real P/L on the pair over its breaker window (pairs with a loss limit)",
    labelNames: ['pair'],
    registers,
    async collect() {
      const rows = await riskRows();
      this.reset();
      for (const row of rows ?? [])
        if (row.windowPnlCents !== null) this.set({ pair: row.pair }, row.windowPnlCents);
    },
  });

  // An unlabelled prom-client gauge always shows a value, 0 before it is set: "last verification
  // failed" and "verified at 1970" before the first run. So these join the registry only once a
  // verification has finished.
  const verifyOk = new Gauge({
    name: 'updown_ledger_last_verify_ok',
    help: '1 when the last ledger verification found every invariant holding, 0 when it found violations',
    registers: [],
  });
  const violations = new Gauge({
    name: 'updown_ledger_violations',
    help: 'Violations the last ledger verification found',
    registers: [],
  });
  const verifiedAt = new Gauge({
    name: 'updown_ledger_last_verify_timestamp_seconds',
    help: 'Unix time the last ledger verification finished',
    registers: [],
  });
  const verifyDuration = new Gauge({
    name: 'updown_ledger_verify_duration_seconds',
    help: 'How long the last ledger verification took',
    registers: [],
  });
  const verifyFailures = new Counter({
    name: 'updown_ledger_verify_failures_total',
    help: 'Ledger verifications that found violations (reason=violations) or could not run (reason=error)',
    labelNames: ['reason'],
    registers,
  });
  // Both reasons start at 0, so the first failure is an increase that rate() and increase() can see.
  for (const reason of ['violations', 'error']) verifyFailures.inc({ reason }, 0);
  for (const metric of ['open_exposure', 'house_pnl', 'risk']) queryFailures.inc({ metric }, 0);

  const gauges: BusinessGauges = {
    sources,
    queryFailures,
    verifyOk,
    violations,
    verifiedAt,
    verifyDuration,
    verifyFailures,
    publishVerification() {
      if (registry.getSingleMetric('updown_ledger_last_verify_ok')) return;
      for (const gauge of [verifyOk, violations, verifiedAt, verifyDuration]) registry.registerMetric(gauge);
    },
  };
  shared.set(registry, gauges);
  return gauges;
}

interface RiskMetricRow {
  readonly pair: string;
  readonly exposure: { readonly UP: number; readonly DOWN: number };
  readonly cap: { readonly UP: number | null; readonly DOWN: number | null };
  readonly suspended: boolean;
  readonly windowPnlCents: number | null;
}

async function readRiskMetrics(db: Kysely<Database>, nowMs: number): Promise<RiskMetricRow[]> {
  const rows = [...(await listPairRisks(db)).values()].slice(0, EXPOSURE_SERIES_MAX);
  const armed = rows.filter((row) => row.loss_limit_cents !== null);
  const windows = await windowPnl(db, armed, nowMs);
  return rows.map((row) => {
    const book = bookOf(row);
    return {
      pair: row.pair,
      exposure: { UP: exposureCents(book, 'UP'), DOWN: exposureCents(book, 'DOWN') },
      cap: { UP: row.exposure_cap_up_cents, DOWN: row.exposure_cap_down_cents },
      suspended: row.suspended_at_ms !== null,
      windowPnlCents: row.loss_limit_cents === null ? null : (windows.get(row.pair) ?? 0),
    };
  });
}

/**
 * Runs one scrape query under a statement timeout and a deadline that also covers waiting for a
 * pool connection. A failure is counted and logged, and the scrape goes on without the series:
 * a missing series is honest, a stale value is not, and `/metrics` must keep answering.
 */
async function scrapeQuery<T>(
  source: Source,
  failures: Counter<'metric'>,
  metric: string,
  query: (db: Kysely<Database>) => Promise<T[]>,
): Promise<T[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${metric} query took longer than ${source.queryTimeoutMs} ms`)),
      source.queryTimeoutMs,
    );
  });
  const work = source.db.transaction().execute(async (trx) => {
    await sql`set local statement_timeout = ${sql.lit(source.queryTimeoutMs)}`.execute(trx);
    return query(trx);
  });
  try {
    return await Promise.race([work, deadline]);
  } catch (error) {
    failures.inc({ metric });
    source.logger.warn({ err: error, metric }, 'business metric query failed');
    return undefined;
  } finally {
    clearTimeout(timer);
    // A query that lost the race still settles later; its outcome no longer matters.
    work.catch(() => undefined);
  }
}

/** Reads only pending trades, through the partial index on `status = 'pending'`. */
function openExposureRows(db: Kysely<Database>): Promise<OpenExposureRow[]> {
  return openExposure(db, EXPOSURE_SERIES_MAX);
}
