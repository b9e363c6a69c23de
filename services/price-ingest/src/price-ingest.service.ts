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
import { OtcProvider } from './feed/otc-provider';
import { priceIngestMetrics } from './metrics';
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
  /** The pairs ticking at the moment. */
  feeds(): readonly string[];
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
  const provider = new OtcProvider({
    clock,
    seed: config.PRICE_FEED_SEED,
    tickIntervalMs: config.TICK_INTERVAL_MS,
  });
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
  const feeds = new PairFeeds({
    db,
    provider,
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
      const pairs = await signCheckpoints(db, deps.signingKey, clock.now());
      for (const pair of pairs) metrics.checkpointsSigned.inc({ pair });
      return pairs;
    } catch (error) {
      metrics.checkpointFailures.inc();
      throw error;
    }
  };

  pipeline.start();
  provider.start(pipeline);
  try {
    await feeds.sync();
  } catch (error) {
    provider.stop();
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
  logger.info(
    {
      pairs: provider.pairs(),
      tickIntervalMs: config.TICK_INTERVAL_MS,
      retentionDays: config.TICK_RETENTION_DAYS,
    },
    'price feed running',
  );

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        await Promise.all([poll.stop(), prune.stop(), checkpoints.stop()]);
        provider.stop();
        await pipeline.stop();
        metrics.activeFeeds.set(0);
      })();
      return stopping;
    },
    flush: () => pipeline.flush(),
    syncPairs: () => feeds.sync(),
    deleteExpiredTicks: retention,
    feeds: () => provider.pairs(),
    checkpoint: async () => {
      await pipeline.flush();
      return checkpoint();
    },
  };
}
