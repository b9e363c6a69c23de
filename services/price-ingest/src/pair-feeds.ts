import type { Kysely } from 'kysely';
import type { Clock, Database, Logger } from '@updown/runtime';
import { TIMEFRAME_SECONDS } from '@updown/schemas/market';
import { backfillCandles } from './candles/backfill.domain';
import { bucketStartSec, rollUpCandles, type CandleRow } from './candles/candles.domain';
import type { FeedHealth, FeedRole } from './feed-health/feed-health';
import type { FeedPair, PriceProvider } from './feed/price-provider';
import {
  hasCandleHistory,
  insertBackfill,
  latestKnownPrice,
  listFeedPairs,
  replaceCandles,
  type FeedPairRow,
} from './market.repository';
import type { PriceIngestMetrics } from './metrics';
import type { TickPipeline } from './tick-pipeline';

/** The reference of a pair an admin added without one. */
export const DEFAULT_REFERENCE_PRICE = 100;
/** Pairs started (and backfilled) at once. */
const STARTS_CONCURRENT_MAX = 4;
const FEED_ROLES: readonly FeedRole[] = ['primary', 'reference'];
/** Minutes of an exchange's history fetched when its feed starts: the exchanges' usual page. */
export const EXCHANGE_HISTORY_MINUTES = 1_000;

/** The providers price-ingest runs: one instance per provider name and feed role, made on first use. */
export interface ProviderPool {
  get(name: string, role: FeedRole): PriceProvider | undefined;
}

export interface PairFeedsOptions {
  readonly db: Kysely<Database>;
  readonly providers: ProviderPool;
  readonly pipeline: TickPipeline;
  readonly health: FeedHealth;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: PriceIngestMetrics;
  readonly seed: number;
  readonly feedsMax: number;
  /** The live feed's tick interval: history gets the same tick volume per minute. */
  readonly tickIntervalMs: number;
}

interface Running {
  readonly provider: string;
  readonly sourceSymbol: string | null;
}

/**
 * Keeps every provider's set of pairs equal to the active pairs of `market_pairs`: each pair's
 * feed on its provider, and its reference feed (if it names one) on the reference's provider. A
 * pair moved to another provider or symbol stops on the old one and starts on the new one at the
 * next pass, without a restart. A feed seen for the first time gets candle history (the
 * exchange's own, or synthetic for OTC when the pair has none), then starts from the last known
 * price, so neither a new pair nor a restart shows an empty or jumping chart.
 */
export class PairFeeds {
  private syncing: Promise<void> | undefined;
  /** The feeds running, by role and pair. */
  private readonly running: Record<FeedRole, Map<string, Running>> = {
    primary: new Map(),
    reference: new Map(),
  };

  constructor(private readonly options: PairFeedsOptions) {}

  /** One pass; concurrent callers share the pass in progress. */
  sync(): Promise<void> {
    this.syncing ??= this.syncOnce().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /** The pairs whose own feed is running. */
  pairs(): string[] {
    return [...this.running.primary.keys()];
  }

  private async syncOnce(): Promise<void> {
    const { db, metrics, pipeline } = this.options;
    const wanted = await listFeedPairs(db, this.options.feedsMax);
    const want: Record<FeedRole, Map<string, Running>> = { primary: new Map(), reference: new Map() };
    const spreads = new Map<string, number>();
    for (const pair of wanted) {
      want.primary.set(pair.symbol, { provider: pair.provider, sourceSymbol: pair.providerSymbol });
      if (pair.referenceProvider !== null && pair.referenceSpreadBps !== null) {
        want.reference.set(pair.symbol, {
          provider: pair.referenceProvider,
          sourceSymbol: pair.referenceSymbol,
        });
        spreads.set(pair.symbol, pair.referenceSpreadBps);
      }
    }
    pipeline.setReferences(spreads);
    for (const role of FEED_ROLES) {
      for (const [symbol, feed] of this.running[role]) {
        const next = want[role].get(symbol);
        if (next && next.provider === feed.provider && next.sourceSymbol === feed.sourceSymbol) continue;
        this.stopFeed(symbol, role, feed);
      }
    }
    const starting = wanted.flatMap((pair) =>
      FEED_ROLES.filter((role) => want[role].has(pair.symbol) && !this.running[role].has(pair.symbol)).map(
        (role) => ({ pair, role }),
      ),
    );
    // A few at a time: backfills overlap their database writes without taking the whole pool.
    for (let i = 0; i < starting.length; i += STARTS_CONCURRENT_MAX) {
      await Promise.all(
        starting.slice(i, i + STARTS_CONCURRENT_MAX).map(({ pair, role }) => this.startFeed(pair, role)),
      );
    }
    metrics.activeFeeds.set(this.running.primary.size);
  }

  private stopFeed(symbol: string, role: FeedRole, feed: Running): void {
    this.options.providers.get(feed.provider, role)?.removePair(symbol);
    this.options.health.untrack(symbol, role);
    this.running[role].delete(symbol);
    this.options.logger.info({ pair: symbol, role, provider: feed.provider }, 'feed stopped');
  }

  /** One feed's failure (an unknown provider, a constraint, a timeout) must not keep the others from starting. */
  private async startFeed(pair: FeedPairRow, role: FeedRole): Promise<void> {
    const { db, logger, health } = this.options;
    const providerName = role === 'primary' ? pair.provider : pair.referenceProvider!;
    const sourceSymbol = role === 'primary' ? pair.providerSymbol : pair.referenceSymbol;
    try {
      const provider = this.options.providers.get(providerName, role);
      if (!provider) throw new Error(`no provider named ${providerName}`);
      const referencePrice = pair.referencePrice ?? DEFAULT_REFERENCE_PRICE;
      const feedPair: FeedPair = {
        symbol: pair.symbol,
        sourceSymbol,
        referencePrice,
        startPrice: referencePrice,
      };
      // Only the pair's own feed draws its chart and continues from its last price.
      if (role === 'primary') await this.ensureHistory(provider, feedPair);
      const startPrice =
        role === 'primary' ? ((await latestKnownPrice(db, pair.symbol)) ?? referencePrice) : referencePrice;
      health.track(pair.symbol, role, providerName, sourceSymbol);
      provider.addPair({ ...feedPair, startPrice });
      this.running[role].set(pair.symbol, { provider: providerName, sourceSymbol });
      logger.info(
        { pair: pair.symbol, role, provider: providerName, sourceSymbol, startPrice },
        'feed started',
      );
    } catch (error) {
      logger.error(
        { err: error, pair: pair.symbol, role, provider: providerName },
        'starting a feed failed; retrying at the next poll',
      );
    }
  }

  /**
   * An exchange feed replaces the candles its history covers, the current minute's included (the
   * exchange's minute so far; live ticks extend it), so no candle mixes the previous feed's prices
   * with the new one's. A source without history gets synthetic history only if the pair has none.
   * A failed history fetch is logged and the feed starts anyway: a chart gap beats no prices.
   */
  private async ensureHistory(provider: PriceProvider, pair: FeedPair): Promise<void> {
    const { db, clock, logger, metrics } = this.options;
    const started = performance.now();
    const endBucketStartSec = bucketStartSec(clock.nowMs(), 60);
    let candles: CandleRow[];
    if (provider.history) {
      try {
        // The last `EXCHANGE_HISTORY_MINUTES` minutes, the current one included.
        const sinceMs = (endBucketStartSec - (EXCHANGE_HISTORY_MINUTES - 1) * 60) * 1000;
        const minutes = (await provider.history(pair, sinceMs, EXCHANGE_HISTORY_MINUTES))
          .filter((c) => c.bucketStartSec <= endBucketStartSec && c.bucketStartSec % 60 === 0)
          .map((c) => ({ ...c, pair: pair.symbol, timeframeSec: 60, volume: 1 }));
        candles = TIMEFRAME_SECONDS.flatMap((tf) => (tf === 60 ? minutes : rollUpCandles(minutes, tf)));
      } catch (error) {
        logger.warn(
          { err: error, pair: pair.symbol, provider: provider.name },
          'exchange history unavailable',
        );
        return;
      }
      await db.transaction().execute((trx) => replaceCandles(trx, candles));
    } else {
      if (await hasCandleHistory(db, pair.symbol)) return;
      candles = backfillCandles({
        symbol: pair.symbol,
        referencePrice: pair.referencePrice,
        seed: this.options.seed,
        endBucketStartSec,
        ticksPerMinute: Math.round(60_000 / this.options.tickIntervalMs),
      });
      await db.transaction().execute((trx) => insertBackfill(trx, candles));
    }
    metrics.backfills.inc({ pair: pair.symbol });
    logger.info(
      {
        pair: pair.symbol,
        provider: provider.name,
        candles: candles.length,
        ms: Math.round(performance.now() - started),
      },
      'candle history backfilled',
    );
  }
}
