import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock, Database, Logger } from '@updown/runtime';
import { TICKS_TOPIC, type TickSubscriber, type TickSubscription } from './bus-ports';
import { newestTickPerPair } from './market.repository';

/** A pair whose latest tick is older than this is not tradable (DESIGN §3). */
export const PRICE_STALE_AFTER_MS = 5_000;
/** Most pairs remembered; ticks for further pairs are ignored (and logged once each). */
export const LATEST_PRICES_PAIRS_MAX = 1_000;

export interface LatestPrice {
  readonly price: number;
  /** What the pair's reference feed said at this tick; absent for a pair without one. */
  readonly reference?: { readonly price: number | null; readonly spreadBps: number };
  /** When the price was observed (Unix epoch ms). */
  readonly atMs: number;
  /** How old the price is now, by the service's clock; never negative. */
  readonly ageMs: number;
}

export interface LatestPrices {
  get(pair: string): LatestPrice | undefined;
  /** True when the pair has a price no older than `PRICE_STALE_AFTER_MS` (or `ageMsMax`). */
  isFresh(pair: string, ageMsMax?: number): boolean;
  stop(): Promise<void>;
}

export interface LatestPricesDeps {
  readonly db: Kysely<Database>;
  readonly bus: TickSubscriber;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Defaults to `latest-prices-<random>`: every instance must see every tick, so each has its own group. */
  readonly group?: string;
}

/**
 * The latest tick per pair, in memory, for whoever needs "the price now" (order placement takes
 * its entry price here and refuses stale pairs). It follows `market.ticks.v1` from the moment it
 * starts and is warmed from the newest stored tick of each pair, so it answers at once after a
 * restart; a stored tick is usually already stale, which is the honest answer until the feed ticks.
 * Ticks only ever move a pair's price forward in time, so a late or redelivered tick is ignored.
 */
export async function startLatestPrices(deps: LatestPricesDeps): Promise<LatestPrices> {
  type Latest = { price: number; atMs: number; reference?: { price: number | null; spreadBps: number } };
  const prices = new Map<string, Latest>();
  const refused = new Set<string>();
  const logger = deps.logger.child({ component: 'latest-prices' });

  const record = (pair: string, latest: Latest) => {
    const current = prices.get(pair);
    if (current) {
      if (latest.atMs >= current.atMs) prices.set(pair, latest);
      return;
    }
    if (prices.size >= LATEST_PRICES_PAIRS_MAX) {
      if (!refused.has(pair) && refused.size < LATEST_PRICES_PAIRS_MAX) {
        refused.add(pair);
        logger.warn({ pair, pairsMax: LATEST_PRICES_PAIRS_MAX }, 'too many pairs; ignoring this one');
      }
      return;
    }
    prices.set(pair, latest);
  };

  // Subscribe before reading the database, so that no tick falls between the two.
  const group = deps.group ?? `latest-prices-${randomUUID().slice(0, 8)}`;
  const subscription: TickSubscription = await deps.bus.subscribe(
    TICKS_TOPIC,
    group,
    async (event) => {
      const { pair, price, atMs, reference } = event.payload;
      record(pair, reference ? { price, atMs, reference } : { price, atMs });
    },
    { fromBeginning: false },
  );
  try {
    for (const tick of await newestTickPerPair(deps.db, LATEST_PRICES_PAIRS_MAX))
      record(tick.pair, { price: tick.price, atMs: tick.atMs });
  } catch (error) {
    await subscription.close();
    throw error;
  }
  logger.info({ pairs: prices.size, group }, 'latest prices warmed from stored ticks');

  const get = (pair: string): LatestPrice | undefined => {
    const latest = prices.get(pair);
    if (!latest) return undefined;
    return { ...latest, ageMs: Math.max(0, deps.clock.nowMs() - latest.atMs) };
  };
  return {
    get,
    isFresh(pair, ageMsMax = PRICE_STALE_AFTER_MS) {
      const latest = get(pair);
      return latest !== undefined && latest.ageMs <= ageMsMax;
    },
    stop: () => subscription.close(),
  };
}
