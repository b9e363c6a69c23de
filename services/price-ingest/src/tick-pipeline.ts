import type { Kysely } from 'kysely';
import { createLoopSlicer, meterJob, type Clock, type Database, type Logger } from '@updown/runtime';
import { createEvent } from '@updown/schemas';
import { TICKS_TOPIC, type TickPublisher } from './bus-ports';
import { aggregateCandles } from './candles/candles.domain';
import { TickChain, type LinkedTicks } from './chain/tick-chain';
import { isChainablePrice } from './chain/chainable';
import type { Tick, TickSink } from './feed/price-provider';
import { FEED_STALE_AFTER_MS } from './feed-health/feed-status.domain';
import { insertReferenceTicks, insertTicksAndCandles, type ReferenceTick } from './market.repository';
import type { PriceIngestMetrics } from './metrics';

export const PRODUCER = 'price-ingest';

export interface TickPipelineOptions {
  readonly db: Kysely<Database>;
  readonly publisher: TickPublisher;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: PriceIngestMetrics;
  readonly flushIntervalMs: number;
  /** Most ticks written by one flush. */
  readonly batchMax: number;
  /** Most ticks held while the database is slow or down; the feed pauses beyond it. */
  readonly bufferMax: number;
}

/** Longest wait between flush attempts while the database keeps failing. */
const FLUSH_BACKOFF_MS_MAX = 5_000;

/**
 * The oldest a tick may be when it is written; older ones are dropped, not stored late. Settlement
 * settles a trade on the ticks stored by then once its expiry is `QUIET_FEED_SETTLE_DELAY_MS`
 * (10 s) past, even when no tick after the expiry has arrived; a tick with a timestamp before that
 * expiry written afterwards (held in this buffer through a database outage) would change the
 * recorded price in force at the expiry after the trade was settled on another. Writing nothing
 * older than 5 s keeps the stored history final before settlement can read it that way: a gap in
 * the history where the database was down, rather than a history rewritten behind a settled trade.
 */
export const TICK_WRITE_AGE_MS_MAX = 5_000;

/**
 * Where ticks go after the provider: buffered, written in batches (ticks and the candles they
 * move, in one transaction), and only then published.
 *
 * Publishing after the commit is deliberate. Settlement reacts to a tick after a trade's expiry by
 * reading the last stored tick at or before the expiry; were ticks published first, that read
 * could miss a tick still sitting in this buffer. It costs the live feed at most one flush
 * interval of latency. When the database is down nothing is published: the latest prices go
 * stale and trading on them stops, rather than trades being taken on prices that were never kept.
 */
export class TickPipeline implements TickSink {
  private buffer: Tick[] = [];
  /**
   * Reference feeds' ticks, written with the next batch of the pairs' own ticks: a stored tick of
   * a pair then proves every reference tick that arrived before it is stored too, as settlement
   * assumes when it compares the two feeds at an expiry.
   */
  private referenceBuffer: ReferenceTick[] = [];
  /** The latest reference price per pair, and the spread of each pair that has a reference. */
  private readonly references = new Map<string, { price: number; atMs: number }>();
  private readonly spreads = new Map<string, number>();
  /** The pairs' chain heads: this pipeline is the single writer of each pair's chain. */
  private readonly chain = new TickChain();
  private flushing: Promise<boolean> | undefined;
  private consecutiveFailures = 0;
  private cancelTimer: (() => void) | undefined;
  private running = false;
  private stopped = false;

  constructor(private readonly options: TickPipelineOptions) {
    if (options.batchMax < 1 || options.bufferMax < options.batchMax) {
      throw new RangeError('need 1 <= batchMax <= bufferMax');
    }
  }

  get size(): number {
    return this.buffer.length;
  }

  accepting(): boolean {
    const ok = !this.stopped && this.buffer.length < this.options.bufferMax;
    if (!ok && !this.stopped) this.options.metrics.roundsSkipped.inc();
    return ok;
  }

  /** Takes a round of ticks; the buffer can exceed `bufferMax` by at most this one round. */
  push(ticks: readonly Tick[]): void {
    if (this.stopped) return;
    for (const tick of ticks) this.buffer.push(tick);
    this.options.metrics.bufferedTicks.set(this.buffer.length);
    // A full batch is written at once, unless writes are failing: then the backoff decides.
    if (this.buffer.length >= this.options.batchMax && this.consecutiveFailures === 0) void this.flushOnce();
  }

  /** Takes a round of a reference feed's ticks; beyond `bufferMax` the oldest are dropped. */
  pushReference(ticks: readonly Tick[], provider: string): void {
    if (this.stopped) return;
    for (const tick of ticks) {
      if (!(Number.isFinite(tick.price) && tick.price > 0)) continue;
      this.referenceBuffer.push({ pair: tick.pair, price: tick.price, atMs: tick.atMs, provider });
      const current = this.references.get(tick.pair);
      if (!current || tick.atMs >= current.atMs)
        this.references.set(tick.pair, { price: tick.price, atMs: tick.atMs });
    }
    const excess = this.referenceBuffer.length - this.options.bufferMax;
    if (excess > 0) {
      this.referenceBuffer.splice(0, excess);
      this.options.metrics.ticksDroppedStale.inc(excess);
    }
  }

  /**
   * The spread of every pair that has a reference feed, replacing the previous set: a pair no
   * longer listed (its reference dropped, the pair disabled) loses its spread and its reference price.
   */
  setReferences(spreads: ReadonlyMap<string, number>): void {
    this.spreads.clear();
    for (const [pair, spreadBps] of spreads) this.spreads.set(pair, spreadBps);
    for (const pair of this.references.keys()) if (!spreads.has(pair)) this.references.delete(pair);
  }

  /** The pair's reference spread, or null without a reference. */
  spreadOf(pair: string): number | null {
    return this.spreads.get(pair) ?? null;
  }

  /** The reference's latest price for a pair, if it has one no older than 5 s at `atMs`. */
  referencePrice(pair: string, atMs: number): number | null {
    const reference = this.references.get(pair);
    return reference && atMs - reference.atMs <= FEED_STALE_AFTER_MS ? reference.price : null;
  }

  start(): void {
    this.running = true;
    this.schedule(this.options.flushIntervalMs);
  }

  /** Writes and publishes everything buffered; false if a batch failed and ticks remain. */
  async flush(): Promise<boolean> {
    for (let rounds = Math.ceil(this.buffer.length / this.options.batchMax) + 1; rounds > 0; rounds--) {
      if (!(await this.flushOnce())) return false;
      if (this.buffer.length === 0) return true;
    }
    return this.buffer.length === 0;
  }

  /** Stops the timer and writes what is left, trying a few times; what still fails is logged as lost. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    for (let attempt = 0; attempt < 3 && this.buffer.length > 0; attempt++) {
      if (await this.flush()) break;
    }
    this.stopped = true;
    if (this.buffer.length > 0) {
      this.options.logger.error({ ticks: this.buffer.length }, 'ticks not written before shutdown');
    }
  }

  /** The next flush waits for this one to finish; while writes fail, the wait doubles up to a bound. */
  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.cancelTimer = this.options.clock.setTimeout(() => {
      void meterJob('tick flush', () => this.flushOnce()).then((ok) => {
        const interval = this.options.flushIntervalMs;
        this.schedule(
          ok ? interval : Math.min(interval * 2 ** this.consecutiveFailures, FLUSH_BACKOFF_MS_MAX),
        );
      });
    }, delayMs);
  }

  /** One batch; concurrent callers share the flush in progress. */
  private flushOnce(): Promise<boolean> {
    this.flushing ??= this.writeBatch().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeBatch(): Promise<boolean> {
    this.dropStale();
    const batch = this.buffer.slice(0, this.options.batchMax);
    const references = this.referenceBuffer;
    if (batch.length === 0 && references.length === 0) return true;
    this.referenceBuffer = [];
    const { metrics, logger } = this.options;
    const stopTimer = metrics.flushDuration.startTimer();
    let linked: LinkedTicks;
    try {
      linked = await this.options.db.transaction().execute(async (trx) => {
        const ticks = await this.chain.link(trx, batch);
        // Candles from the chained ticks only: a refused tick is never stored, so it moves nothing.
        await insertTicksAndCandles(trx, ticks.chained, aggregateCandles(ticks.chained));
        await insertReferenceTicks(trx, references);
        return ticks;
      });
    } catch (error) {
      stopTimer();
      // The stored chain may end elsewhere than the heads held here (another writer, a commit
      // whose answer was lost): read the heads again before the next link.
      this.chain.forget(new Set(batch.map((tick) => tick.pair)));
      this.referenceBuffer = references.concat(this.referenceBuffer);
      this.consecutiveFailures++;
      metrics.flushFailures.inc();
      logger.error(
        { err: error, ticks: batch.length, failures: this.consecutiveFailures },
        'writing ticks failed',
      );
      return false;
    }
    stopTimer();
    const { chained, refused } = linked;
    this.chain.commit(chained);
    this.consecutiveFailures = 0;
    this.buffer.splice(0, batch.length);
    metrics.bufferedTicks.set(this.buffer.length);
    metrics.ticksPersisted.inc(chained.length);
    metrics.flushBatchSize.observe(chained.length);
    if (refused.length > 0) {
      metrics.ticksDroppedNotLater.inc(refused.length);
      logger.warn(
        { ticks: refused.length, pairs: [...new Set(refused.map((tick) => tick.pair))] },
        "ticks not later than their pair's chain head were dropped: tick times rise strictly along a chain",
      );
    }
    // Only what was stored is published: the order service enters trades on published ticks.
    await this.publish(chained);
    return true;
  }

  /**
   * Drops buffered ticks too old to be written (see `TICK_WRITE_AGE_MS_MAX`), and ticks whose price
   * the chain cannot write as a decimal string (docs/receipts.md; a provider fault), counted and logged.
   */
  private dropStale(): void {
    const oldestAtMs = this.options.clock.nowMs() - TICK_WRITE_AGE_MS_MAX;
    // Ticks arrive in time order per pair, but rounds of pairs interleave: filter, not a prefix cut.
    this.referenceBuffer = this.referenceBuffer.filter((tick) => tick.atMs >= oldestAtMs);
    let stale = 0;
    let unusable = 0;
    const kept = this.buffer.filter((tick) => {
      if (!isChainablePrice(tick.price)) unusable++;
      else if (tick.atMs < oldestAtMs) stale++;
      else return true;
      return false;
    });
    if (stale === 0 && unusable === 0) return;
    this.buffer = kept;
    this.options.metrics.bufferedTicks.set(this.buffer.length);
    if (unusable > 0) {
      this.options.metrics.ticksDroppedUnusable.inc(unusable);
      this.options.logger.error({ ticks: unusable }, 'ticks with prices the chain cannot write were dropped');
    }
    if (stale > 0) {
      this.options.metrics.ticksDroppedStale.inc(stale);
      this.options.logger.warn(
        { ticks: stale, ageMsMax: TICK_WRITE_AGE_MS_MAX },
        'ticks too old to write were dropped',
      );
    }
  }

  /** Pairs in parallel, each pair's ticks in order, so the bus keeps every pair's sequence. */
  private async publish(batch: readonly Tick[]): Promise<void> {
    const byPair = new Map<string, Tick[]>();
    for (const tick of batch) {
      const list = byPair.get(tick.pair);
      if (list) list.push(tick);
      else byPair.set(tick.pair, [tick]);
    }
    const failures: { pair: string; error: unknown }[] = [];
    // What the bus's subscribers in this process do with each tick runs in this loop's turn: the
    // loop turns between slices, so a flush of many ticks never holds it for all of them.
    const slicer = createLoopSlicer();
    await Promise.all(
      [...byPair].map(async ([pair, ticks]) => {
        for (const tick of ticks) {
          if (slicer.due()) await slicer.yield();
          try {
            const spreadBps = this.spreads.get(tick.pair);
            const payload =
              spreadBps === undefined
                ? { pair: tick.pair, price: tick.price, atMs: tick.atMs }
                : {
                    pair: tick.pair,
                    price: tick.price,
                    atMs: tick.atMs,
                    reference: { price: this.referencePrice(tick.pair, tick.atMs), spreadBps },
                  };
            const event = createEvent(TICKS_TOPIC, payload, { producer: PRODUCER, occurredAt: tick.atMs });
            await this.options.publisher.publish(TICKS_TOPIC, pair, event);
            this.options.metrics.ticksPublished.inc({ pair });
          } catch (error) {
            this.options.metrics.publishFailures.inc({ pair });
            failures.push({ pair, error });
          }
        }
      }),
    );
    // The ticks are stored, and a later tick supersedes each on the bus: counted and logged once
    // per batch (not per tick, which would flood the log while the bus is down), never retried.
    if (failures.length > 0) {
      const pairs = [...new Set(failures.map((f) => f.pair))];
      this.options.logger.warn(
        { err: failures[0]!.error, ticks: failures.length, pairs },
        'publishing ticks failed',
      );
    }
  }
}
