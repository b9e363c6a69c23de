import { performance } from 'node:perf_hooks';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { chainHash, signCheckpoints } from '@updown/price-ingest';
import {
  createLogger,
  generateSigningKey,
  ManualClock,
  MemoryBus,
  OutboxRelay,
  Registry,
  type Database,
} from '@updown/runtime';
import { createEvent, eventTopics } from '@updown/schemas';
import {
  issueReceipts,
  loadReceipt,
  RECEIPT_BATCH_MAX,
  SETTLEMENT_DEFAULTS,
  SETTLEMENT_PRODUCER,
  settledTradesSource,
  startSettlement,
  type RunningSettlement,
} from '@updown/settlement';
import { verifyReceipt } from '@updown/verify';
import { nodeCrypto } from '@updown/verify/node';
import { formatReport, verifyLedger } from '@updown/wallet';
import { bareWritePostings } from '../lib/storm-reference';
import { seedStorm } from '../lib/storm-seed';
import { statementKind } from '../lib/storm-statements';
import type { BenchContext, Benchmark, BenchResult } from '../lib/types';

/**
 * Expiry storm: 100,000 pending trades of 20,000 users over 6 pairs, all expiring inside one tick
 * interval of one second, so a single stored tick makes every one of them due at once. Measured:
 * from storing and publishing that tick to the commit that settles the last trade (outcome, ledger
 * postings, bonus turnover and outbox events, all in the settlement transactions), with the real
 * settlement service and the outbox relay running as `npm start` runs them. The ledger must verify
 * afterwards. Reference, same database and run: one bare `INSERT … SELECT` of as many posting rows.
 */

const SIZES = {
  full: { trades: 100_000, users: 20_000 },
  quick: { trades: 10_000, users: 2_000 },
} as const;
const PAIRS = 6;
/** The feed's default tick interval; every expiry falls between two ticks of this grid. */
const TICK_INTERVAL_MS = 250;
const EXPIRY_FROM_MS = Date.UTC(2026, 0, 5, 12, 0, 0);
const DURATION_SEC = 60;
const REAL_EVERY = 3;
/** The tick is stored this long after its own timestamp, as a feed's batched writer would. */
const TICK_STORE_LAG_MS = 5;
const GOAL_SECONDS_MAX = 2;
const GOAL_RATIO_MAX = 2;
/** Longest the storm, then the relay's publishing, may take before the run is called failed. */
const STORM_TIMEOUT_MS = 120_000;
const PUBLISH_TIMEOUT_MS = 60_000;

function counterTotal(registry: Registry, name: string): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return Promise.resolve(0);
  return Promise.resolve(metric.get()).then((m) => m.values.reduce((sum, v) => sum + v.value, 0));
}

function deadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function run(context: BenchContext): Promise<BenchResult> {
  const size = context.quick ? SIZES.quick : SIZES.full;
  const database = await context.env.createDatabase({ max: 20 });
  const stops: Array<() => Promise<void>> = [];
  try {
    const { db } = database;
    const seedStarted = performance.now();
    const seeded = await seedStorm(db, {
      trades: size.trades,
      users: size.users,
      pairs: PAIRS,
      expiryFromMs: EXPIRY_FROM_MS,
      expirySpreadMs: TICK_INTERVAL_MS,
      durationSec: DURATION_SEC,
      tickIntervalMs: TICK_INTERVAL_MS,
      realEvery: REAL_EVERY,
    });
    // A live system has statistics and a settled WAL; the storm should not pay for the bulk seed.
    await sql`vacuum analyze`.execute(db);
    await sql`checkpoint`.execute(db);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    context.log(
      `seeded ${seeded.trades} trades, ${size.users} users, ${seeded.postings} postings in ${seedSeconds.toFixed(1)} s`,
    );
    const before = await sql<{ postings: number }>`select max(id) as postings from ledger_postings`.execute(
      db,
    );
    const prefillUpToId = Number(before.rows[0]!.postings);

    let statements = 0;
    let transactions = 0;
    let firstClaimAt: number | undefined;
    const secondsByStatement = new Map<string, number>();
    let counting = false;
    const settlementDb = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: database.pool }),
      log: (event) => {
        if (!counting || (event.level !== 'query' && event.level !== 'error')) return;
        statements++;
        const kind = statementKind(event.query.sql);
        if (/^\s*begin/i.test(event.query.sql)) transactions++;
        if (kind === 'lock_due_trades' && firstClaimAt === undefined) {
          firstClaimAt = performance.now() - event.queryDurationMillis;
        }
        secondsByStatement.set(kind, (secondsByStatement.get(kind) ?? 0) + event.queryDurationMillis / 1000);
      },
    });
    const logger = createLogger({ level: 'silent', name: 'bench-expiry-storm' });
    const registry = new Registry();
    const bus = new MemoryBus({ topics: eventTopics, logger, registry });
    stops.push(() => bus.close());
    const clock = new ManualClock(EXPIRY_FROM_MS - 5_000);
    // The relay as `npm start` runs it (its own defaults, wall-clock timers), kicked by each commit.
    const relay = new OutboxRelay({
      db,
      bus,
      logger,
      registry,
      sources: [settledTradesSource(SETTLEMENT_PRODUCER)],
    });
    relay.start();
    stops.unshift(() => relay.stop());
    let published = 0;
    let allPublished: (() => void) | undefined;
    const publishedAll = new Promise<void>((resolve) => (allPublished = resolve));
    await bus.subscribe('trades.settled.v1', 'bench-observer', async () => {
      if (++published === seeded.trades) allPublished?.();
    });

    let settledAtMs: number | undefined;
    let onSettled: (() => void) | undefined;
    const settledAll = new Promise<void>((resolve) => (onSettled = resolve));
    const settlement: RunningSettlement = await startSettlement({
      db: settlementDb,
      bus,
      logger,
      registry,
      clock,
      onCommitted: () => {
        const at = performance.now();
        relay.kick();
        void counterTotal(registry, 'updown_trades_settled_total').then((total) => {
          if (total >= seeded.trades && settledAtMs === undefined) {
            settledAtMs = at;
            onSettled?.();
          }
        });
      },
    });
    stops.unshift(() => settlement.stop());
    if (settlement.scheduled() !== seeded.trades) {
      throw new Error(`settlement scheduled ${settlement.scheduled()} of ${seeded.trades} trades`);
    }

    // The first tick after every expiry: stored (one insert for all pairs, as the feed's writer
    // does), then published; the clock says it arrived a few milliseconds after its timestamp.
    const tickAtMs = EXPIRY_FROM_MS + TICK_INTERVAL_MS;
    // Chained on the heads as price-ingest's writer holds them in memory (read here, before the clock starts).
    const heads = await sql<{ pair: string; price: number; seq: number; hash: Buffer }>`
      select pair, price, seq, hash from market_ticks
      where pair = any(${[...seeded.pairs]}::text[]) and at_ms = ${EXPIRY_FROM_MS}`.execute(db);
    const next = heads.rows.map((h) => {
      const price = h.price * 1.0001;
      return {
        pair: h.pair,
        price,
        seq: h.seq + 1,
        prevHash: h.hash,
        hash: chainHash(h.pair, h.seq + 1, tickAtMs, price, h.hash),
      };
    });
    clock.set(tickAtMs + TICK_STORE_LAG_MS);
    context.log(`storm: ${seeded.trades} trades due on one tick`);
    counting = true;
    const started = performance.now();
    const ticks = await sql<{ pair: string; price: number }>`
      insert into market_ticks (pair, at_ms, price, seq, prev_hash, hash)
      select pair, ${tickAtMs}, price, seq, prev_hash, hash
      from unnest(${next.map((t) => t.pair)}::text[], ${next.map((t) => t.price)}::float8[], ${next.map((t) => t.seq)}::bigint[],
                  ${next.map((t) => t.prevHash)}::bytea[], ${next.map((t) => t.hash)}::bytea[]) as u (pair, price, seq, prev_hash, hash)
      returning pair, price`.execute(db);
    for (const tick of ticks.rows) {
      await bus.publish(
        'market.ticks.v1',
        tick.pair,
        createEvent(
          'market.ticks.v1',
          { pair: tick.pair, price: tick.price, atMs: tickAtMs },
          { producer: 'bench' },
        ),
      );
    }
    await deadline(settledAll, STORM_TIMEOUT_MS, `${seeded.trades} trades to settle`);
    counting = false;
    const stormSeconds = (settledAtMs! - started) / 1000;
    await deadline(publishedAll, PUBLISH_TIMEOUT_MS, `${seeded.trades} settled events on the bus`);
    const publishedSeconds = (performance.now() - started) / 1000;
    context.log(
      `settled in ${stormSeconds.toFixed(3)} s; events published after ${publishedSeconds.toFixed(1)} s`,
    );
    for (const stop of stops.splice(0)) await stop();

    const outcomes = await sql<{ status: string; n: number }>`
      select status, count(*)::int as n from trades group by status order by status`.execute(db);
    const byStatus = Object.fromEntries(outcomes.rows.map((r) => [r.status, r.n]));
    if ((byStatus.pending ?? 0) > 0) throw new Error(`${byStatus.pending} trades still pending`);
    const report = await verifyLedger(db);
    if (!report.ok) throw new Error(`ledger does not verify after the storm:\n${formatReport(report)}`);
    const written = await sql<{ postings: number; entries: number }>`
      select (select count(*)::int from ledger_postings where id > ${prefillUpToId}) as postings,
             (select count(*)::int from ledger_entries where kind in ('trade_payout', 'trade_loss', 'trade_refund')) as entries`.execute(
      db,
    );
    const { postings, entries } = written.rows[0]!;

    // Receipts, after the storm and off its clock as in production (settlement never waits for
    // them): the checkpoint covering the tick after expiry, then every receipt, in the issuer's
    // batches, as `startReceiptIssuer` runs them.
    context.log('receipts: checkpoint, then every settled trade’s receipt');
    const receiptsStarted = performance.now();
    const key = generateSigningKey();
    await signCheckpoints(db, key, clock);
    let receipts = 0;
    let receiptPasses = 0;
    for (;;) {
      const pass = await issueReceipts(db, {
        key,
        nowMs: clock.nowMs(),
        batch: RECEIPT_BATCH_MAX,
        waitMsMax: 300_000,
      });
      receiptPasses++;
      receipts += pass.issued;
      if (pass.issued === 0) break;
    }
    const receiptsSeconds = (performance.now() - receiptsStarted) / 1000;
    const sample = await db.selectFrom('trades').select('id').limit(1).executeTakeFirstOrThrow();
    const sampled = await loadReceipt(db, sample.id);
    const sampleVerdict =
      sampled.status === 'issued'
        ? (await verifyReceipt(sampled.document, key.keySet, nodeCrypto)).verdict
        : sampled.status;
    context.log(
      `receipts: ${receipts} in ${receiptsSeconds.toFixed(1)} s; a sample verifies: ${sampleVerdict}`,
    );

    context.log(`reference: bare insert of ${postings} posting rows`);
    const bare = await bareWritePostings(db, { rows: postings, prefillUpToId });
    const bareSeconds = bare.ms / 1000;
    const ratio = stormSeconds / bareSeconds;
    const batchSize = SETTLEMENT_DEFAULTS.batchSize;
    return {
      name: 'expiry-storm',
      value: Number(stormSeconds.toFixed(3)),
      unit: 's',
      goal: `<= ${GOAL_SECONDS_MAX} s and <= ${GOAL_RATIO_MAX}x the bare write, ledger:verify clean`,
      reference_name: 'bare INSERT … SELECT of the same posting rows',
      reference_value: Number(bareSeconds.toFixed(3)),
      ratio: Number(ratio.toFixed(2)),
      pass: stormSeconds <= GOAL_SECONDS_MAX && ratio <= GOAL_RATIO_MAX && report.ok,
      setup: {
        trades: seeded.trades,
        users: size.users,
        pairs: PAIRS,
        real_trades: seeded.realTrades,
        expiries: `spread over the ${TICK_INTERVAL_MS} ms before one tick (ticks every ${TICK_INTERVAL_MS} ms), so one tick makes all due`,
        outcomes: outcomes.rows.map((r) => `${r.status} ${r.n}`).join(', '),
        batch_size: batchSize,
        batches_per_pass_max: SETTLEMENT_DEFAULTS.batchesPerPassMax,
        partitions: `${SETTLEMENT_DEFAULTS.partitions} owner shares settled side by side, each on its own connection`,
        settlement_transactions: transactions,
        first_claim_after_tick_ms:
          firstClaimAt === undefined ? null : Number((firstClaimAt - started).toFixed(1)),
        statements: statements,
        seconds_by_statement: [...secondsByStatement.entries()]
          .sort((a, b) => b[1] - a[1])
          .map(([kind, seconds]) => `${kind} ${seconds.toFixed(2)}`)
          .join(', '),
        statements_note:
          'every statement settlement sent from the tick to the last commit, BEGIN/COMMIT included; seconds are summed over the shares running side by side, so they add up to more than the storm',
        settlement_entries: entries,
        postings_written: postings,
        postings_per_trade: Number((postings / seeded.trades).toFixed(2)),
        trades_per_s: Math.round(seeded.trades / stormSeconds),
        events_published_s: Number(publishedSeconds.toFixed(2)),
        receipts_issued: receipts,
        receipts_s: Number(receiptsSeconds.toFixed(2)),
        receipts_per_s: Math.round(receipts / receiptsSeconds),
        receipts_note: `after the storm, off its clock: one checkpoint per pair, then ${receiptPasses} issuing transactions of up to ${RECEIPT_BATCH_MAX} signed receipts; a sampled receipt verified ${sampleVerdict}`,
        relay: 'on, npm start defaults (batch 100), competing for the same cores and database',
        reference:
          'like ledger_postings including all (same checks and indexes, prefilled with the same rows), no triggers or foreign keys; one statement, one commit',
        ledger_verify: `clean: ${report.entries} entries, ${report.postings} postings, ${report.accounts} accounts`,
        seed_s: Number(seedSeconds.toFixed(1)),
        seed: 'set-based SQL writing the trade and ledger rows placement writes (users, accounts, demo grant and a real deposit, stake holds with running balances; per-row FK checks and triggers skipped as in a restore when the role is superuser), then VACUUM ANALYZE and CHECKPOINT',
        synchronous_commit: context.env.server.synchronous_commit ?? 'unknown',
        fsync: context.env.server.fsync ?? 'unknown',
        cores: 'settlement, relay and PostgreSQL share the 2 cores; no load generator',
      },
    };
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
    await database.drop();
  }
}

export const expiryStorm: Benchmark = {
  name: 'expiry-storm',
  inDefaultRun: true,
  run,
};
