import { Counter, Gauge, Histogram, type Registry } from '@updown/runtime';

/**
 * price-ingest's series. Created once per registry and shared, because prom-client refuses a
 * second metric of the same name and the single process (or a test) may start the service twice
 * on one registry. Labels are pair symbols only, which the `market_pairs` table bounds.
 */
export interface PriceIngestMetrics {
  readonly ticksPublished: Counter<'pair'>;
  readonly publishFailures: Counter<'pair'>;
  readonly ticksPersisted: Counter;
  readonly ticksDroppedStale: Counter;
  readonly ticksDroppedUnusable: Counter;
  readonly ticksDroppedNotLater: Counter;
  readonly checkpointsSigned: Counter<'pair'>;
  readonly checkpointFailures: Counter;
  readonly flushBatchSize: Histogram;
  readonly flushDuration: Histogram;
  readonly flushFailures: Counter;
  readonly bufferedTicks: Gauge;
  readonly roundsSkipped: Counter;
  readonly activeFeeds: Gauge;
  readonly ticksDeleted: Counter;
  readonly backfills: Counter<'pair'>;
  readonly feedTickAge: Gauge<'pair' | 'role' | 'provider'>;
  readonly feedTicksPerSecond: Gauge<'pair' | 'role' | 'provider'>;
  readonly feedReconnects: Counter<'pair' | 'role' | 'provider'>;
  readonly feedGaps: Counter<'pair' | 'role' | 'provider'>;
  readonly feedMalformed: Counter<'role' | 'provider'>;
  readonly feedDivergence: Gauge<'pair'>;
  readonly feedTradable: Gauge<'pair'>;
}

const shared = new WeakMap<Registry, PriceIngestMetrics>();

export function priceIngestMetrics(registry: Registry): PriceIngestMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: PriceIngestMetrics = {
    ticksPublished: new Counter({
      name: 'updown_ticks_published_total',
      help: 'Ticks published to market.ticks.v1, by pair',
      labelNames: ['pair'],
      registers,
    }),
    publishFailures: new Counter({
      name: 'updown_tick_publish_failures_total',
      help: 'Ticks persisted but not published because the bus refused them (the next tick supersedes them)',
      labelNames: ['pair'],
      registers,
    }),
    ticksPersisted: new Counter({
      name: 'updown_ticks_persisted_total',
      help: 'Ticks written to market_ticks',
      registers,
    }),
    ticksDroppedStale: new Counter({
      name: 'updown_ticks_dropped_stale_total',
      help: 'Ticks dropped because the database stayed unwritable until they were too old to store',
      registers,
    }),
    ticksDroppedUnusable: new Counter({
      name: 'updown_ticks_dropped_unusable_total',
      help: 'Ticks dropped because their price cannot be written as a chain decimal (a provider fault)',
      registers,
    }),
    ticksDroppedNotLater: new Counter({
      name: 'updown_ticks_dropped_not_later_total',
      help: "Ticks dropped because their time is not later than their pair's chain head (tick times rise strictly)",
      registers,
    }),
    checkpointsSigned: new Counter({
      name: 'updown_tick_checkpoints_signed_total',
      help: 'Signed checkpoints of the tick chains, by pair',
      labelNames: ['pair'],
      registers,
    }),
    checkpointFailures: new Counter({
      name: 'updown_tick_checkpoint_failures_total',
      help: 'Checkpoint passes that failed (retried at the next interval)',
      registers,
    }),
    flushBatchSize: new Histogram({
      name: 'updown_tick_flush_batch_size',
      help: 'Ticks written per flush (one multi-row insert and one candle upsert)',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    }),
    flushDuration: new Histogram({
      name: 'updown_tick_flush_duration_seconds',
      help: 'Time to write one batch of ticks and candles',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    flushFailures: new Counter({
      name: 'updown_tick_flush_failures_total',
      help: 'Batches that failed to write; they stay buffered and are retried with backoff',
      registers,
    }),
    bufferedTicks: new Gauge({
      name: 'updown_tick_buffer_size',
      help: 'Ticks produced but not yet written',
      registers,
    }),
    roundsSkipped: new Counter({
      name: 'updown_feed_rounds_skipped_total',
      help: 'Feed rounds not produced because the tick buffer was full (the database is not keeping up)',
      registers,
    }),
    activeFeeds: new Gauge({
      name: 'updown_price_feeds_active',
      help: 'Pairs currently ticking',
      registers,
    }),
    ticksDeleted: new Counter({
      name: 'updown_ticks_deleted_total',
      help: 'Ticks removed by retention',
      registers,
    }),
    backfills: new Counter({
      name: 'updown_candle_backfills_total',
      help: "Pairs given candle history: synthetic for a pair with none, or an exchange feed's own",
      labelNames: ['pair'],
      registers,
    }),
    feedTickAge: new Gauge({
      name: 'updown_feed_last_tick_age_seconds',
      help: 'Seconds since the feed last ticked, by pair and role (primary or reference); a pair is untradable past 5',
      labelNames: ['pair', 'role', 'provider'],
      registers,
    }),
    feedTicksPerSecond: new Gauge({
      name: 'updown_feed_ticks_per_second',
      help: 'Ticks per second over the last minute, by pair and role',
      labelNames: ['pair', 'role', 'provider'],
      registers,
    }),
    feedReconnects: new Counter({
      name: 'updown_feed_reconnects_total',
      help: 'Times a feed came back after dropping, failing or stalling',
      labelNames: ['pair', 'role', 'provider'],
      registers,
    }),
    feedGaps: new Counter({
      name: 'updown_feed_gaps_total',
      help: 'Silences of 5 s or more between two ticks of a feed',
      labelNames: ['pair', 'role', 'provider'],
      registers,
    }),
    feedMalformed: new Counter({
      name: 'updown_feed_malformed_messages_total',
      help: 'Messages from a provider that could not be read: counted and skipped',
      labelNames: ['role', 'provider'],
      registers,
    }),
    feedDivergence: new Gauge({
      name: 'updown_feed_divergence_bps',
      help: "How far a pair's feed and its reference feed are apart, basis points",
      labelNames: ['pair'],
      registers,
    }),
    feedTradable: new Gauge({
      name: 'updown_feed_tradable',
      help: "1 while the pair's feeds allow trading (live and agreeing), 0 while paused or diverged",
      labelNames: ['pair'],
      registers,
    }),
  };
  shared.set(registry, metrics);
  return metrics;
}
