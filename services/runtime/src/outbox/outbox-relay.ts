import type { Kysely } from 'kysely';
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
import {
  claimUnpublished,
  type OutboxRow,
  countUnpublished,
  deletePublishedBefore,
  markPublished,
  tryTakeRelayLock,
} from './outbox.repository';

/**
 * Publishes committed outbox rows to the bus, in id order, and marks them published.
 *
 * Each pass is one transaction: take the relay advisory lock (`pg_try_advisory_xact_lock`; a
 * relay that does not get it skips the pass), lock up to `batchSize` unpublished rows in id order
 * (`FOR UPDATE SKIP LOCKED`), publish them together (`publishMany`: one produce request on Kafka),
 * mark the published ones, commit. The
 * lock makes one relay per database active at any moment, so batches never overtake each other
 * and events keep their order per key; any number of processes may run a relay for failover.
 *
 * Delivery is at-least-once: if the process dies between a publish and the commit, the row is
 * published again by the next pass. When publishing the batch fails, the pass publishes its rows
 * again one at a time (what the failed batch appended is then appended twice, which at-least-once
 * allows): the rows before the first that fails are marked, that row and those after it stay
 * unpublished, and the relay backs off (bounded exponential delay) before trying again. Rows older than `retentionMs` after
 * publication are deleted in bounded batches.
 *
 * Order is outbox id order, which is commit order for events that depend on each other (the second
 * transaction starts after the first committed). Events of transactions that run concurrently
 * have no order relative to each other, and an id can become visible after a higher one.
 */

export interface OutboxRelayOptions {
  /** Rows per pass; bounds the transaction's length and the rows it locks. */
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
  /** Longest one publish (of a batch or of one row) may take before it counts as failed (it may still land: at-least-once). */
  readonly publishTimeoutMs?: number;
  /** How long published rows are kept, for inspection, before deletion. */
  readonly retentionMs?: number;
  readonly cleanupIntervalMs?: number;
  readonly cleanupBatchSize?: number;
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
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  cleanupIntervalMs: 60_000,
  cleanupBatchSize: 1_000,
  backlogIntervalMs: 1_000,
});

const BACKLOG_COUNT_CAP = 1_000_000;

export interface OutboxRelayDeps<R extends TopicRegistry> {
  readonly db: Kysely<Database>;
  readonly bus: Pick<Bus<R>, 'publishMany'>;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly clock?: Clock;
  /** Tables that are their own outbox, published after the `outbox` rows of each pass. */
  readonly sources?: readonly OutboxSource[];
}

export class OutboxPublishFailed extends Error {
  readonly code = 'OUTBOX_PUBLISH_FAILED';
  constructor(
    /** What failed to go out: `outbox row 42`, or a source's rows after its cursor. */
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
  /** True when the outbox or a source had a whole batch: more may be waiting, so pass again at once. */
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
  private lastCleanupMs = Number.NEGATIVE_INFINITY;
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

  /** Wakes an idle relay now; call it after committing a transaction that wrote to the outbox. */
  kick(): void {
    if (this.wake) this.wake();
    else this.kicked = true;
  }

  /** Finishes the pass in progress (bounded by `publishTimeoutMs` per row), then stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  /**
   * One pass: publish and mark up to `batchSize` `outbox` rows, then up to `batchSize` rows of each
   * source, moving its cursor. Throws `OutboxPublishFailed` after committing what succeeded.
   */
  async relayOnce(): Promise<RelayPass> {
    let failure: OutboxPublishFailed | undefined;
    const pass = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await tryTakeRelayLock(trx))) return { active: false, topics: [] as string[], full: false };
      const rows = await claimUnpublished(trx, this.settings.batchSize);
      let done = rows;
      if (rows.length > 0) {
        try {
          await this.publish(rows.map(outboxMessage));
        } catch {
          // Which row failed, and the rows before it: one at a time, as far as they go.
          done = [];
          for (const row of rows) {
            try {
              await this.publish([outboxMessage(row)]);
            } catch (error) {
              failure = new OutboxPublishFailed(`outbox row ${row.id}`, row.topic, error);
              this.metrics.publishFailures.inc({ topic: row.topic });
              break;
            }
            done.push(row);
          }
        }
      }
      await markPublished(
        trx,
        done.map((row) => row.id),
        new Date(this.clock.now()),
      );
      const topics = done.map((row) => row.topic);
      let full = rows.length === this.settings.batchSize;
      for (const source of failure ? [] : (this.deps.sources ?? [])) {
        const after = await readCursor(trx, source.name);
        const sourced = await source.read(trx, after, this.settings.batchSize);
        if (sourced.length === 0) continue;
        try {
          await this.publish(sourced.map((row) => row.message));
        } catch (error) {
          const topic = sourced[0]!.message.topic;
          failure = new OutboxPublishFailed(`${source.name} rows after its cursor`, topic, error);
          this.metrics.publishFailures.inc({ topic });
          break;
        }
        await moveCursor(trx, source.name, sourced[sourced.length - 1]!.position);
        topics.push(...sourced.map((row) => row.message.topic));
        if (sourced.length === this.settings.batchSize) full = true;
      }
      return { active: true, topics, full };
    });
    for (const topic of pass.topics) this.metrics.relayedCount(topic).relayed++;
    if (failure) throw failure;
    return { active: pass.active, published: pass.topics.length, full: pass.full };
  }

  /** Deletes published rows past retention, at most `cleanupBatchSize` per call; returns how many. */
  async deleteExpired(): Promise<number> {
    const before = new Date(this.clock.now() - this.settings.retentionMs);
    const deleted = await deletePublishedBefore(this.deps.db, before, this.settings.cleanupBatchSize);
    if (deleted > 0) this.metrics.deleted.inc(deleted);
    return deleted;
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
        // Rows come from the database as stored: their topics are the registry's by construction.
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
    const now = this.clock.now();
    const due =
      now - this.lastBacklogMs >= this.settings.backlogIntervalMs ||
      now - this.lastCleanupMs >= this.settings.cleanupIntervalMs;
    // Metered only when there is work: the relay passes between run after every commit.
    if (due) await meterJob('outbox housekeeping', () => this.housekeepingDue(now));
  }

  private async housekeepingDue(now: number): Promise<void> {
    try {
      if (now - this.lastBacklogMs >= this.settings.backlogIntervalMs) {
        this.lastBacklogMs = now;
        this.metrics.backlog.set(await countUnpublished(this.deps.db, BACKLOG_COUNT_CAP));
      }
      if (now - this.lastCleanupMs >= this.settings.cleanupIntervalMs) {
        this.lastCleanupMs = now;
        const deleted = await this.deleteExpired();
        if (deleted > 0) this.deps.logger.debug({ deleted }, 'deleted published outbox rows past retention');
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'outbox housekeeping failed');
    }
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

/** An `outbox` row as the bus takes it; the event was validated when it was enqueued. */
function outboxMessage(row: OutboxRow): BusMessage {
  return { topic: row.topic as BusMessage['topic'], key: row.key, event: row.event as BusMessage['event'] };
}
