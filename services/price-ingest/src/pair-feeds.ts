import type { Kysely } from 'kysely';
import type { Clock, Database, Logger } from '@updown/runtime';
import { backfillCandles } from './candles/backfill.domain';
import { bucketStartSec } from './candles/candles.domain';
import type { PriceProvider } from './feed/price-provider';
import {
  hasCandleHistory,
  insertBackfill,
  latestKnownPrice,
  listFeedPairs,
  type FeedPairRow,
} from './market.repository';
import type { PriceIngestMetrics } from './metrics';

/** The reference of a pair an admin added without one. */
export const DEFAULT_REFERENCE_PRICE = 100;
/** Pairs started (and backfilled) at once. */
const STARTS_CONCURRENT_MAX = 4;

export interface PairFeedsOptions {
  readonly db: Kysely<Database>;
  readonly provider: PriceProvider;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: PriceIngestMetrics;
  readonly seed: number;
  readonly feedsMax: number;
  /** The live feed's tick interval: history gets the same tick volume per minute. */
  readonly tickIntervalMs: number;
}

/**
 * Keeps the provider's set of pairs equal to the active pairs of `market_pairs` it serves. A pair
 * seen for the first time gets candle history if it has none, then starts from its last known
 * price, so neither a new pair nor a restart shows an empty or jumping chart.
 */
export class PairFeeds {
  private syncing: Promise<void> | undefined;

  constructor(private readonly options: PairFeedsOptions) {}

  /** One pass; concurrent callers share the pass in progress. */
  sync(): Promise<void> {
    this.syncing ??= this.syncOnce().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const { db, provider, logger, metrics } = this.options;
    const wanted = await listFeedPairs(db, provider.name, this.options.feedsMax);
    const wantedSymbols = new Set(wanted.map((pair) => pair.symbol));
    for (const symbol of provider.pairs()) {
      if (wantedSymbols.has(symbol)) continue;
      provider.removePair(symbol);
      logger.info({ pair: symbol }, 'feed stopped');
    }
    const running = new Set(provider.pairs());
    const starting = wanted.filter((pair) => !running.has(pair.symbol));
    // A few at a time: backfills overlap their database writes without taking the whole pool.
    for (let i = 0; i < starting.length; i += STARTS_CONCURRENT_MAX) {
      await Promise.all(starting.slice(i, i + STARTS_CONCURRENT_MAX).map((pair) => this.startFeed(pair)));
    }
    metrics.activeFeeds.set(provider.pairs().length);
  }

  /** One pair's failure (a constraint, a timeout) must not keep the others from starting. */
  private async startFeed(pair: FeedPairRow): Promise<void> {
    const { db, provider, logger } = this.options;
    try {
      const referencePrice = pair.referencePrice ?? DEFAULT_REFERENCE_PRICE;
      await this.ensureHistory(pair.symbol, referencePrice);
      const startPrice = (await latestKnownPrice(db, pair.symbol)) ?? referencePrice;
      provider.addPair({ symbol: pair.symbol, referencePrice, startPrice });
      logger.info({ pair: pair.symbol, startPrice }, 'feed started');
    } catch (error) {
      logger.error({ err: error, pair: pair.symbol }, 'starting a feed failed; retrying at the next poll');
    }
  }

  /** Synthetic history up to the current minute for a pair with no 1m candle at all. */
  private async ensureHistory(symbol: string, referencePrice: number): Promise<void> {
    const { db, clock, logger, metrics } = this.options;
    if (await hasCandleHistory(db, symbol)) return;
    const started = Date.now();
    const candles = backfillCandles({
      symbol,
      referencePrice,
      seed: this.options.seed,
      endBucketStartSec: bucketStartSec(clock.now(), 60),
      ticksPerMinute: Math.round(60_000 / this.options.tickIntervalMs),
    });
    await db.transaction().execute((trx) => insertBackfill(trx, candles));
    metrics.backfills.inc({ pair: symbol });
    logger.info(
      { pair: symbol, candles: candles.length, ms: Date.now() - started },
      'candle history backfilled',
    );
  }
}
