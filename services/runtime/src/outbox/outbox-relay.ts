import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { EventTopics, TopicRegistry } from '@updown/schemas';
import type { Bus, BusMessage } from '../bus/bus';
import { retryDelayMs } from '../bus/retry';
import { systemClock, type Clock } from '../clock';
import { meterJob } from '../job-meter';
import type { Database } from '../db/schema';
import { outboxMetrics, type OutboxMetrics } from './outbox-metrics';
import { moveCursor, readCursor, type OutboxSource } from './outbox-source';
import { tryTakeRelayLock } from './relay-lock';

/**
 * Publishes the committed rows of the tables that are their own outbox (`OutboxSource`) to the
 * bus, each source in its position order, and moves each source's cursor past what it published.
 *
 * Each pass is one transaction: take the relay advisory lock (`pg_try_advisory_xact_lock`; a
 * relay that does not get it skips the pass), then for each source read its cursor, read up to
 * `batchSize` rows after it, publish them together (`publishMany`: one produce request on Kafka)
 * and move the cursor; commit. The lock makes one relay per database active at any moment, so
 * batches never overtake each other and events keep their order per key; any number of processes
 * may run a relay for failover.
 *
 * Delivery is at-least-once: if the process dies between a publish and the commit, the cursor has
 * not moved and the next pass publishes the rows again. When a publish fails, the source's cursor
 * stays, the pass leaves the sources after it for the next, and the relay backs off (bounded
 * exponential delay) before trying the same rows again. A failed batch is not tried again row by
 * row: a cursor cannot pass a row, so that would only publish the rows before one the bus refuses
 * a pass sooner; and a batch fails mostly because the broker is down or slow, when a second
 * attempt within the pass only holds the lock for up to another `publishTimeoutMs`.
 *
 * Order is a source's position order, which is commit order for rows whose transactions depend on
 * each other (the second starts after the first committed). Rows of transactions that run
 * concurrently have no order relative to each other, nor have the rows of different sources.
 */

export interface OutboxRelayOptions {
  /** Rows per source per pass; bounds the transaction's length and the size of a publish. */
  readonly batchSize?: number;
  /** Idle poll interval; `kick()` wakes the relay sooner. */
  readonly pollIntervalMs?: number;
  /**
   * When another relay held the lock: how soon to try again. Shorter than a long poll, because
   * rows this process committed (and kicked for) meanwhile wait for whichever relay passes next.
   */
  readonly lockedRetryMs?: number;
  readonly retryDelayMsMin?: number;
  readonly retryDelayMsMax?: number;
  /** Longest one publish may take before it counts as failed (it may still land: at-least-once). */
  readonly publishTimeoutMs?: number;
  /** How often the backlog gauge is refreshed. */
  readonly backlogIntervalMs?: number;
}

export const OUTBOX_RELAY_DEFAULTS = Object.freeze({
  batchSize: 100,
  pollIntervalMs: 100,
  lockedRetryMs: 100,
  retryDelayMsMin: 100,
  retryDelayMsMax: 5_000,
  publishTimeoutMs: 10_000,
  backlogIntervalMs: 1_000,
});

/**
 * The backlog gauge counts at most this many rows in all, so its queries stay cheap however far
 * the sources fall behind.
 */
const BACKLOG_COUNT_CAP = 1_000_000;

export interface OutboxRelayDeps<R extends TopicRegistry> {
  readonly db: Kysely<Database>;
  readonly bus: Pick<Bus<R>, 'publishMany'>;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly clock?: Clock;
  /** The tables that are their own outbox, published in this order in each pass. */
  readonly sources?: readonly OutboxSource[];
}

export class OutboxPublishFailed extends Error {
  readonly code = 'OUTBOX_PUBLISH_FAILED';
  constructor(
    /** What failed to go out: a source's rows after its cursor. */
    readonly what: string,
    readonly topic: string,
    cause: unknown,
  ) {
    super(`Publishing ${what} to ${topic} failed: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = 'OutboxPublishFailed';
  }
}

export interface RelayPass {
  /** False when another relay holds the lock and this pass did nothing. */
  readonly active: boolean;
  readonly published: number;
  /** True when a source had a whole batch: more may be waiting, so pass again at once. */
  readonly full: boolean;
}

export class OutboxRelay<R extends TopicRegistry = EventTopics> {
  private readonly settings: Required<OutboxRelayOptions>;
  private readonly clock: Clock;
  private readonly metrics: OutboxMetrics;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private kicked = false;
  private wake: (() => void) | undefined;
  private lastBacklogMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: OutboxRelayDeps<R>,
    options: OutboxRelayOptions = {},
  ) {
    this.settings = { ...OUTBOX_RELAY_DEFAULTS, ...options };
    if (
      !Number.isInteger(this.settings.batchSize) ||
      this.settings.batchSize < 1 ||
      this.settings.batchSize > 10_000
    ) {
      throw new RangeError(`batchSize must be an integer from 1 to 10000, got ${this.settings.batchSize}`);
    }
    this.clock = deps.clock ?? systemClock;
    this.metrics = outboxMetrics(deps.registry);
  }

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.run();
  }

  /** Wakes an idle relay now; call it after committing a transaction that wrote rows of a source. */
  kick(): void {
    if (this.wake) this.wake();
    else this.kicked = true;
  }

  /** Finishes the pass in progress (bounded by `publishTimeoutMs` per source), then stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  /**
   * One pass: publish up to `batchSize` rows of each source after its cursor, moving the cursor.
   * Throws `OutboxPublishFailed` after committing what succeeded.
   */
  async relayOnce(): Promise<RelayPass> {
    let failure: OutboxPublishFailed | undefined;
    const pass = await this.deps.db.transaction().execute(async (trx) => {
      const topics: string[] = [];
      if (!(await tryTakeRelayLock(trx))) return { active: false, topics, full: false };
      let full = false;
      for (const source of this.deps.sources ?? []) {
        const after = await readCursor(trx, source.name);
        const rows = await source.read(trx, after, this.settings.batchSize);
        if (rows.length === 0) continue;
        try {
          await this.publish(rows.map((row) => row.message));
        } catch (error) {
          const topic = rows[0]!.message.topic;
          failure = new OutboxPublishFailed(`${source.name} rows after its cursor`, topic, error);
          this.metrics.publishFailures.inc({ topic });
          break;
        }
        await moveCursor(trx, source.name, rows[rows.length - 1]!.position);
        topics.push(...rows.map((row) => row.message.topic));
        if (rows.length === this.settings.batchSize) full = true;
      }
      return { active: true, topics, full };
    });
    for (const topic of pass.topics) this.metrics.relayedCount(topic).relayed++;
    if (failure) throw failure;
    return { active: pass.active, published: pass.topics.length, full: pass.full };
  }

  private async publish(messages: readonly BusMessage[]): Promise<void> {
    let cancel: (() => void) | undefined;
    const timeout = new Promise<never>((_, reject) => {
      cancel = this.clock.setTimeout(
        () => reject(new Error(`no answer within ${this.settings.publishTimeoutMs} ms`)),
        this.settings.publishTimeoutMs,
      );
    });
    try {
      await Promise.race([
        // A source builds its messages from its rows with the registry's topics.
        this.deps.bus.publishMany(messages as unknown as readonly BusMessage<R>[]),
        timeout,
      ]);
    } finally {
      cancel?.();
    }
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let pass: RelayPass | undefined;
      try {
        pass = await this.relayOnce();
        failures = 0;
      } catch (error) {
        failures++;
        this.deps.logger.warn({ err: error, failures }, 'outbox relay pass failed; backing off');
      }
      // Housekeeping runs on failed passes too: the backlog matters most while the bus is down.
      await this.housekeeping();
      if (!pass) await this.sleep(retryDelayMs(failures, this.settings), false);
      else if (!pass.active) {
        await this.sleep(Math.min(this.settings.lockedRetryMs, this.settings.pollIntervalMs), true);
      } else if (!pass.full) {
        await this.sleep(this.settings.pollIntervalMs, true);
      }
    }
  }

  private async housekeeping(): Promise<void> {
    const now = this.clock.nowMs();
    if (now - this.lastBacklogMs < this.settings.backlogIntervalMs) return;
    this.lastBacklogMs = now;
    // Metered only when there is work: the relay passes between run after every commit.
    await meterJob('outbox housekeeping', async () => {
      try {
        const waiting = await this.deps.db
          .transaction()
          .setAccessMode('read only')
          .execute((trx) => this.countBacklog(trx));
        this.metrics.backlog.set(waiting);
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'outbox housekeeping failed');
      }
    });
  }

  /** The sources' committed rows after their cursors, counted up to `BACKLOG_COUNT_CAP` in all. */
  private async countBacklog(trx: Transaction<Database>): Promise<number> {
    let waiting = 0;
    for (const source of this.deps.sources ?? []) {
      if (waiting >= BACKLOG_COUNT_CAP) break;
      const after = await readCursor(trx, source.name);
      waiting += await source.pending(trx, after, BACKLOG_COUNT_CAP - waiting);
    }
    return waiting;
  }

  /** Waits on the clock; `stop()` always ends the wait, `kick()` only when `kickable` (not while backing off). */
  private sleep(ms: number, kickable: boolean): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (kickable && this.kicked) {
      this.kicked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        cancel();
        this.wake = undefined;
        resolve();
      };
      const cancel = this.clock.setTimeout(done, ms);
      this.wake = kickable
        ? done
        : () => {
            if (this.stopping) done();
            else this.kicked = true;
          };
    });
  }
}
