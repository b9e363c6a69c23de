import type { Kysely } from 'kysely';
import {
  repeatEvery,
  retryDelayMs,
  type Bus,
  type Clock,
  type Database,
  type Logger,
  type Registry,
  type Repeating,
  type Subscription,
} from '@updown/runtime';
import { loadPendingPage, overduePendingPairs } from '@updown/order';
import { latestTickAtMs } from '@updown/price-ingest';
import type { EventOf } from '@updown/schemas';
import { startBusinessMetrics } from './business-metrics';
import { ExpirySchedule } from './expiry-schedule';
import { isPartitionCount, settleBatch, SETTLEMENT_BATCH_MAX, type SettleBatchResult } from './settle-batch';
import { dueBefore, QUIET_FEED_SETTLE_DELAY_MS } from './settlement.domain';
import { settlementMetrics, type SettlementMetrics } from './settlement-metrics';

export const SETTLEMENT_GROUP = 'settlement';

export interface SettlementOptions {
  /** Trades per settlement transaction. */
  readonly batchSize?: number;
  /** Batches one pass runs before yielding to the next pass (which starts at once). */
  readonly batchesPerPassMax?: number;
  /**
   * Owner shares settled side by side, each in its own transactions on its own connection: 1, 2,
   * 4, 8 or 16. Shares touch disjoint trades, accounts and house shards, so they never wait on
   * each other; while one waits for PostgreSQL, another's trades are decided in memory.
   */
  readonly partitions?: number;
  /** Most trades held in the in-memory schedule; the sweep finds the rest once overdue. */
  readonly scheduleCapacity?: number;
  /** How often the database is swept for overdue pending trades the schedule does not hold. */
  readonly sweepIntervalMs?: number;
  /** When the bus shows a tick after an expiry that is not stored yet, look again this soon. */
  readonly recheckDelayMs?: number;
  readonly retryDelayMsMin?: number;
  readonly retryDelayMsMax?: number;
}

export const SETTLEMENT_DEFAULTS = Object.freeze({
  batchSize: 5_000,
  batchesPerPassMax: 20,
  partitions: 2,
  scheduleCapacity: 1_000_000,
  sweepIntervalMs: 5_000,
  recheckDelayMs: 100,
  retryDelayMsMin: 100,
  retryDelayMsMax: 5_000,
});

/** Rows per recovery query: each page is one short index-range read. */
const RECOVERY_PAGE_SIZE = 10_000;
/** Pairs whose latest bus tick is remembered. */
const TICK_PAIRS_MAX = 10_000;
/** Pairs the sweep returns per run; more are found by the next run. */
const SWEEP_PAIRS_MAX = 1_000;

export interface SettlementDeps {
  readonly db: Kysely<Database>;
  readonly bus: Pick<Bus, 'subscribe'>;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly clock: Clock;
  /** Called after a batch that wrote events commits: the outbox relay's `kick`. */
  readonly onCommitted?: () => void;
  readonly options?: SettlementOptions;
}

export interface RunningSettlement {
  /** Stops consuming and the timers, and waits for the batch in flight. */
  stop(): Promise<void>;
  /** One settlement pass now (after any pass in flight); resolves to the number of trades settled. */
  settleDue(): Promise<number>;
  /** Trades in the in-memory schedule. */
  scheduled(): number;
}

/**
 * Starts the settlement service: reloads every pending trade from PostgreSQL into the expiry
 * schedule, then follows `trades.opened.v1` (new trades) and `market.ticks.v1` (the trigger) in
 * consumer group `settlement`. Ticks only wake it up; prices are read from the stored ticks.
 */
export async function startSettlement(deps: SettlementDeps): Promise<RunningSettlement> {
  const settler = new Settler(deps);
  // Subscribe before reading the pending trades: a trade committed after the read has its event
  // delivered; one committed before is in the read. The schedule ignores the overlap.
  const subscriptions: Subscription[] = [];
  try {
    subscriptions.push(
      await deps.bus.subscribe('trades.opened.v1', SETTLEMENT_GROUP, (event) => settler.onOpened(event), {
        fromBeginning: false,
      }),
      await deps.bus.subscribe('market.ticks.v1', SETTLEMENT_GROUP, (event) => settler.onTick(event), {
        fromBeginning: false,
      }),
    );
    await settler.recover();
  } catch (error) {
    await Promise.allSettled(subscriptions.map((s) => s.close()));
    throw error;
  }
  settler.start();
  // Exposure, house P/L, ledger checks: started here so `npm start` and the standalone service both have them.
  const business = startBusinessMetrics({ db: deps.db, registry: deps.registry, logger: deps.logger });
  return {
    async stop() {
      await Promise.allSettled(subscriptions.map((s) => s.close()));
      await settler.stop();
      await business.stop();
    },
    settleDue: () => settler.settleDue(),
    scheduled: () => settler.scheduled(),
  };
}

class Settler {
  private readonly settings: Required<SettlementOptions>;
  private readonly metrics: SettlementMetrics;
  private readonly logger: Logger;
  private readonly schedule: ExpirySchedule;
  /** The newest tick time seen on the bus, per pair. */
  private readonly lastTickAtMs = new Map<string, number>();
  /** Pairs to settle on the next pass whatever the schedule holds (recovery, sweep). */
  private readonly sweepPairs = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private kickQueued = false;
  private stopped = false;
  private failures = 0;
  private overflowLogged = false;
  private quietTimer: { at: number; cancel: () => void } | undefined;
  private cancelRecheck: (() => void) | undefined;
  private cancelRetry: (() => void) | undefined;
  private sweepTimer: Repeating<void> | undefined;

  constructor(private readonly deps: SettlementDeps) {
    this.settings = { ...SETTLEMENT_DEFAULTS, ...deps.options };
    const { batchSize, scheduleCapacity } = this.settings;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > SETTLEMENT_BATCH_MAX) {
      throw new RangeError(`batchSize must be an integer from 1 to ${SETTLEMENT_BATCH_MAX}`);
    }
    if (!Number.isInteger(scheduleCapacity) || scheduleCapacity < 1) {
      throw new RangeError('scheduleCapacity must be a positive integer');
    }
    if (!isPartitionCount(this.settings.partitions)) {
      throw new RangeError('partitions must divide 16: 1, 2, 4, 8 or 16');
    }
    this.metrics = settlementMetrics(deps.registry);
    this.logger = deps.logger.child({ component: 'settlement' });
    this.schedule = new ExpirySchedule(scheduleCapacity);
  }

  scheduled(): number {
    return this.schedule.size;
  }

  /** Loads every pending trade, expired or not, in expiry order (so a full schedule keeps the soonest). */
  async recover(): Promise<void> {
    let after: { expiryAtMs: number; id: string } | undefined;
    let loaded = 0;
    for (;;) {
      const page = await loadPendingPage(this.deps.db, after, RECOVERY_PAGE_SIZE);
      for (const trade of page) this.add(trade.id, trade.pair, trade.expiry_at_ms);
      loaded += page.length;
      const last = page.at(-1);
      if (!last || page.length < RECOVERY_PAGE_SIZE || this.schedule.size >= this.settings.scheduleCapacity)
        break;
      after = { expiryAtMs: last.expiry_at_ms, id: last.id };
    }
    const now = this.deps.clock.nowMs();
    // Whatever expired while the service was down is checked against the stored ticks at once.
    for (const pair of this.schedule.pairs()) {
      if (this.schedule.earliest(pair)! < now) this.sweepPairs.add(pair);
    }
    this.metrics.pending.set(this.schedule.size);
    this.logger.info({ pending: loaded, overduePairs: this.sweepPairs.size }, 'pending trades loaded');
  }

  start(): void {
    // The safety net: pending trades overdue in the database that the schedule does not cover.
    this.sweepTimer = repeatEvery({
      clock: this.deps.clock,
      intervalMs: this.settings.sweepIntervalMs,
      name: 'overdue sweep',
      logger: this.logger,
      task: () => this.sweep(),
    });
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.quietTimer?.cancel();
    this.cancelRecheck?.();
    this.cancelRetry?.();
    await this.sweepTimer?.stop();
    await this.queue;
  }

  async onOpened(event: EventOf<'trades.opened.v1'>): Promise<void> {
    const { tradeId, pair, expiryAtMs } = event.payload;
    if (!this.add(tradeId, pair, expiryAtMs)) return;
    this.metrics.pending.set(this.schedule.size);
    if (this.dueInMemory(pair, this.deps.clock.nowMs())) this.kick();
    else this.armTimers(this.deps.clock.nowMs());
  }

  async onTick(event: EventOf<'market.ticks.v1'>): Promise<void> {
    const { pair, atMs } = event.payload;
    const last = this.lastTickAtMs.get(pair);
    // Pairs come from the feed, a few hundred at most; the cap only guards memory against a rogue producer.
    if (last === undefined ? this.lastTickAtMs.size < TICK_PAIRS_MAX : atMs > last)
      this.lastTickAtMs.set(pair, atMs);
    const earliest = this.schedule.earliest(pair);
    if (earliest !== undefined && earliest < atMs) this.kick();
  }

  settleDue(): Promise<number> {
    return this.exclusive(() => this.pass());
  }

  private add(tradeId: string, pair: string, expiryAtMs: number): boolean {
    if (this.schedule.add(tradeId, pair, expiryAtMs)) return true;
    if (!this.schedule.has(tradeId) && !this.overflowLogged) {
      this.overflowLogged = true;
      this.logger.warn(
        { capacity: this.settings.scheduleCapacity },
        'settlement schedule full; further trades are settled by the overdue sweep',
      );
    }
    return false;
  }

  /** The bus showed a tick after the pair's earliest expiry, or the feed has been quiet long enough. */
  private dueInMemory(pair: string, now: number): boolean {
    const earliest = this.schedule.earliest(pair);
    if (earliest === undefined) return false;
    return (
      earliest < (this.lastTickAtMs.get(pair) ?? Number.NEGATIVE_INFINITY) ||
      earliest + QUIET_FEED_SETTLE_DELAY_MS <= now
    );
  }

  /** Passes run one at a time, in order; a kick while one is queued adds nothing. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Queues a pass. While a failed pass waits for its retry, ticks and events do not queue more:
   * the bounded backoff holds until the retry timer (`force`) fires.
   */
  private kick(force = false): void {
    if (this.stopped || this.kickQueued || (this.cancelRetry && !force)) return;
    this.kickQueued = true;
    void this.exclusive(async () => {
      this.kickQueued = false;
      try {
        await this.pass();
        this.failures = 0;
      } catch (error) {
        this.failures++;
        this.metrics.failures.inc();
        const delayMs = retryDelayMs(this.failures, this.settings);
        this.logger.error(
          { err: error, failures: this.failures, retryInMs: delayMs },
          'settlement pass failed',
        );
        this.cancelRetry?.();
        this.cancelRetry = this.deps.clock.setTimeout(() => {
          this.cancelRetry = undefined;
          this.kick(true);
        }, delayMs);
      }
    });
  }

  private async pass(): Promise<number> {
    if (this.stopped) return 0;
    const now = this.deps.clock.nowMs();
    const candidates = new Set(this.sweepPairs);
    for (const pair of this.schedule.pairs()) if (this.dueInMemory(pair, now)) candidates.add(pair);
    let settled = 0;
    if (candidates.size > 0) {
      const latest = await latestTickAtMs(this.deps.db, [...candidates]);
      const due = [...candidates]
        .map((pair) => ({ pair, dueBefore: dueBefore(latest.get(pair), now) }))
        .filter(
          (d) => this.sweepPairs.has(d.pair) || (this.schedule.earliest(d.pair) ?? Infinity) < d.dueBefore,
        );
      settled = await this.settleAll(due);
    }
    this.armTimers(now);
    this.metrics.pending.set(this.schedule.size);
    return settled;
  }

  /**
   * Batches until no due trade is left, then drops the due part of the schedule. Each owner share
   * runs its own batches one after another; the shares run side by side, and the pass ends when
   * all of them have (a failed one fails the pass once the others' batches in flight are done).
   */
  private async settleAll(due: readonly { pair: string; dueBefore: number }[]): Promise<number> {
    if (due.length === 0) return 0;
    const { partitions: count, batchesPerPassMax } = this.settings;
    let batches = 0;
    let total = 0;
    let failed = false;
    const share = async (index: number): Promise<boolean> => {
      while (batches < batchesPerPassMax) {
        // Stopping waits for the batches in flight only; the next instance settles the rest.
        if (this.stopped || failed) return false;
        batches++;
        try {
          const result = await settleBatch(this.deps.db, {
            due,
            limit: this.settings.batchSize,
            now: this.deps.clock.nowMs(),
            partition: { index, count },
          });
          total += result.settled.length;
          this.record(result);
          if (result.selected < this.settings.batchSize) return true;
        } catch (error) {
          failed = true;
          throw error;
        }
      }
      return false;
    };
    const outcomes = await Promise.allSettled(Array.from({ length: count }, (_, index) => share(index)));
    const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (rejected) throw rejected.reason;
    if (this.stopped) return total;
    if (outcomes.every((o) => o.status === 'fulfilled' && o.value)) {
      for (const d of due) {
        this.schedule.removeBefore(d.pair, d.dueBefore);
        this.sweepPairs.delete(d.pair);
      }
    } else {
      this.kick();
    }
    return total;
  }

  private record(result: SettleBatchResult): void {
    if (result.settled.length === 0) return;
    this.deps.onCommitted?.();
    const settledAtMs = this.deps.clock.nowMs();
    this.metrics.batchSize.observe(result.settled.length);
    for (const trade of result.settled) {
      this.metrics.settled.inc({ outcome: trade.status });
      this.metrics.lag.observe(Math.max(0, settledAtMs - trade.expiryAtMs) / 1000);
    }
    for (const suspension of result.suspensions) {
      this.metrics.suspensions.inc({ pair: suspension.pair });
      this.logger.warn(
        { pair: suspension.pair, windowPnlCents: suspension.windowPnlCents },
        `real trading suspended by the loss circuit-breaker: ${suspension.reason}`,
      );
    }
    if (result.completedBonuses.length > 0) {
      this.logger.info(
        { bonuses: result.completedBonuses.map((b) => b.bonusId) },
        'bonus wagering completed',
      );
    }
  }

  /**
   * The quiet-feed timer fires `QUIET_FEED_SETTLE_DELAY_MS` after the earliest expiry; the recheck
   * timer looks again shortly when the bus is ahead of the stored ticks (bounded by the quiet rule).
   */
  private armTimers(now: number): void {
    if (this.stopped) return;
    const earliest = this.schedule.earliestOverall();
    const at = earliest === undefined ? undefined : earliest + QUIET_FEED_SETTLE_DELAY_MS;
    if (this.quietTimer?.at !== at) {
      this.quietTimer?.cancel();
      this.quietTimer =
        at === undefined
          ? undefined
          : { at, cancel: this.deps.clock.setTimeout(() => this.onQuietTimer(), Math.max(0, at - now)) };
    }
    const waiting = this.schedule.pairs().some((pair) => {
      const first = this.schedule.earliest(pair)!;
      return (
        first < (this.lastTickAtMs.get(pair) ?? Number.NEGATIVE_INFINITY) &&
        now < first + QUIET_FEED_SETTLE_DELAY_MS
      );
    });
    if (waiting && !this.cancelRecheck) {
      this.cancelRecheck = this.deps.clock.setTimeout(() => {
        this.cancelRecheck = undefined;
        this.kick();
      }, this.settings.recheckDelayMs);
    }
  }

  private onQuietTimer(): void {
    this.quietTimer = undefined;
    this.kick();
  }

  private async sweep(): Promise<void> {
    const before = this.deps.clock.nowMs() - QUIET_FEED_SETTLE_DELAY_MS - this.settings.sweepIntervalMs;
    const overdue = await overduePendingPairs(this.deps.db, before, SWEEP_PAIRS_MAX);
    if (overdue.length === 0 || this.stopped) return;
    for (const { pair } of overdue) this.sweepPairs.add(pair);
    this.logger.warn({ pairs: overdue.map((o) => o.pair) }, 'overdue pending trades found by the sweep');
    this.kick();
  }
}
