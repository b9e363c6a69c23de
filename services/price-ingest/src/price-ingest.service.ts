import type { Kysely } from 'kysely';
import {
  repeatEvery,
  type Clock,
  type Database,
  type Logger,
  type Registry,
  type SigningKey,
} from '@updown/runtime';
import type { TickPublisher } from './bus-ports';
import { signCheckpoints } from './chain/checkpoints';
import type { PriceIngestServiceConfig } from './config';
import { FeedHealth } from './feed-health/feed-health';
import { currentDivergenceBps, pairFeedStatus } from './feed-health/feed-status.domain';
import { writeFeedReports } from './feed-health/feed-status.repository';
import { parseExchangeEndpoints } from './feed/exchange-endpoints';
import { providerPool } from './feed/providers';
import { priceIngestMetrics, type PriceIngestMetrics } from './metrics';
import { PairFeeds } from './pair-feeds';
import { deleteExpiredTicks } from './retention';
import { TickPipeline } from './tick-pipeline';

export interface PriceIngestDeps {
  readonly db: Kysely<Database>;
  /** Any `Bus` adapter of the runtime. */
  readonly bus: TickPublisher;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly clock: Clock;
  readonly config: PriceIngestServiceConfig;
  /** Signs the chains' checkpoints (the platform key). */
  readonly signingKey: SigningKey;
}

export interface RunningPriceIngest {
  /** Stops the feed and the timers, then writes and publishes what is still buffered. */
  stop(): Promise<void>;
  /** Writes and publishes every buffered tick now; false if a write failed. */
  flush(): Promise<boolean>;
  /** Re-reads `market_pairs` now instead of at the next poll. */
  syncPairs(): Promise<void>;
  /** One retention pass now; resolves to the number of ticks deleted. */
  deleteExpiredTicks(): Promise<number>;
  /** The pairs whose own feed is running. */
  feeds(): readonly string[];
  /** Writes the feeds' health to `market_feed_status` and the metrics now. */
  reportFeeds(): Promise<void>;
  /** Writes what is buffered, then signs a checkpoint of every chain that grew; resolves to the pairs signed. */
  checkpoint(): Promise<string[]>;
}

/**
 * Starts the market data service: the OTC feed for every active pair (with candle history for
 * pairs that have none), batched persistence of ticks and candles, publication on
 * `market.ticks.v1`, the pairs poll, signed checkpoints of the tick chains and tick retention. Resolves once every active pair is ticking.
 */
export async function startPriceIngest(deps: PriceIngestDeps): Promise<RunningPriceIngest> {
  const { db, clock, config } = deps;
  const logger = deps.logger.child({ component: 'price-ingest' });
  const metrics = priceIngestMetrics(deps.registry);
  const pipeline = new TickPipeline({
    db,
    publisher: deps.bus,
    clock,
    logger,
    metrics,
    flushIntervalMs: config.TICK_FLUSH_INTERVAL_MS,
    batchMax: config.TICK_BATCH_MAX,
    bufferMax: Math.max(config.TICK_BUFFER_MAX, config.TICK_BATCH_MAX),
  });
  const health = new FeedHealth(clock, {
    reconnected: (pair, role, provider) => metrics.feedReconnects.inc({ pair, role, provider }),
    gap: (pair, role, provider) => metrics.feedGaps.inc({ pair, role, provider }),
    malformed: (role, provider) => metrics.feedMalformed.inc({ role, provider }),
  });
  const providers = providerPool({
    clock,
    logger,
    seed: config.PRICE_FEED_SEED,
    tickIntervalMs: config.TICK_INTERVAL_MS,
    endpoints: parseExchangeEndpoints(config.EXCHANGE_ENDPOINTS),
    pipeline,
    health,
  });
  const feeds = new PairFeeds({
    db,
    providers,
    pipeline,
    health,
    clock,
    logger,
    metrics,
    seed: config.PRICE_FEED_SEED,
    feedsMax: config.PRICE_FEEDS_MAX,
    tickIntervalMs: config.TICK_INTERVAL_MS,
  });
  const retention = () =>
    deleteExpiredTicks({
      db,
      clock,
      logger,
      metrics,
      retentionDays: config.TICK_RETENTION_DAYS,
      chunk: config.TICK_RETENTION_CHUNK,
    });

  const checkpoint = async (): Promise<string[]> => {
    try {
      const pairs = await signCheckpoints(db, deps.signingKey, clock);
      for (const pair of pairs) metrics.checkpointsSigned.inc({ pair });
      return pairs;
    } catch (error) {
      metrics.checkpointFailures.inc();
      throw error;
    }
  };

  const report = () => reportFeeds({ db, clock, health, pipeline, metrics });

  pipeline.start();
  try {
    await feeds.sync();
  } catch (error) {
    providers.stop();
    await pipeline.stop();
    throw error;
  }
  const poll = repeatEvery({
    clock,
    intervalMs: config.PAIRS_POLL_INTERVAL_MS,
    name: 'pairs poll',
    logger,
    task: () => feeds.sync(),
  });
  const prune = repeatEvery({
    clock,
    intervalMs: config.TICK_RETENTION_INTERVAL_MS,
    name: 'tick retention',
    logger,
    task: retention,
  });
  const checkpoints = repeatEvery({
    clock,
    intervalMs: config.CHECKPOINT_INTERVAL_MS,
    name: 'tick checkpoints',
    logger,
    task: checkpoint,
  });
  const reports = repeatEvery({
    clock,
    intervalMs: config.FEED_REPORT_INTERVAL_MS,
    name: 'feed health',
    logger,
    task: report,
  });
  logger.info(
    {
      pairs: feeds.pairs(),
      tickIntervalMs: config.TICK_INTERVAL_MS,
      retentionDays: config.TICK_RETENTION_DAYS,
    },
    'price feed running',
  );

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        await Promise.all([poll.stop(), prune.stop(), checkpoints.stop(), reports.stop()]);
        providers.stop();
        await pipeline.stop();
        metrics.activeFeeds.set(0);
      })();
      return stopping;
    },
    flush: () => pipeline.flush(),
    syncPairs: () => feeds.sync(),
    deleteExpiredTicks: retention,
    feeds: () => feeds.pairs(),
    reportFeeds: report,
    checkpoint: async () => {
      await pipeline.flush();
      return checkpoint();
    },
  };
}

/**
 * The feeds' health, once a second: to `market_feed_status` (the console's pair status, the admin
 * Feeds view, in any process) and to the metrics (ages, rates, divergence, tradability per pair).
 */
async function reportFeeds(deps: {
  db: Kysely<Database>;
  clock: Clock;
  health: FeedHealth;
  pipeline: TickPipeline;
  metrics: PriceIngestMetrics;
}): Promise<void> {
  const { db, clock, health, pipeline, metrics } = deps;
  const now = clock.nowMs();
  const divergence = (pair: string) =>
    currentDivergenceBps(
      health.latestPrice(pair, 'primary')?.price ?? null,
      pipeline.referencePrice(pair, now),
    );
  const reports = health.reports(divergence);
  metrics.feedTickAge.reset();
  metrics.feedTicksPerSecond.reset();
  metrics.feedDivergence.reset();
  metrics.feedTradable.reset();
  const references = new Map(reports.filter((r) => r.role === 'reference').map((r) => [r.pair, r]));
  for (const r of reports) {
    const labels = { pair: r.pair, role: r.role, provider: r.provider };
    // A feed that never ticked has been silent since it started, so FeedStale fires for it too.
    metrics.feedTickAge.set(labels, Math.max(0, now - (r.lastTickAtMs ?? r.startedAtMs)) / 1000);
    metrics.feedTicksPerSecond.set(labels, r.ticksPerSec);
    if (r.role !== 'primary') continue;
    const spreadBps = pipeline.spreadOf(r.pair);
    const reference = references.get(r.pair);
    if (r.divergenceBps !== null) metrics.feedDivergence.set({ pair: r.pair }, r.divergenceBps);
    const status = pairFeedStatus(
      {
        lastTickAtMs: r.lastTickAtMs,
        reference:
          spreadBps === null
            ? null
            : {
                lastTickAtMs: reference?.lastTickAtMs ?? null,
                agrees: r.divergenceBps === null ? null : r.divergenceBps <= spreadBps,
              },
      },
      now,
    );
    metrics.feedTradable.set({ pair: r.pair }, status === 'live' ? 1 : 0);
  }
  await writeFeedReports(db, reports, now);
}
