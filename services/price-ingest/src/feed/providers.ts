import type { Clock, Logger } from '@updown/runtime';
import type { FeedHealth, FeedRole } from '../feed-health/feed-health';
import type { ProviderPool } from '../pair-feeds';
import type { TickPipeline } from '../tick-pipeline';
import { CCXT_EXCHANGES, CcxtProvider } from './ccxt-provider';
import type { ExchangeEndpoints } from './exchange-endpoints';
import { OTC_PROVIDER, OtcProvider } from './otc-provider';
import type { PriceProvider, TickSink } from './price-provider';

export interface ProviderPoolOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly seed: number;
  readonly tickIntervalMs: number;
  readonly endpoints: Readonly<Record<string, ExchangeEndpoints>>;
  readonly pipeline: TickPipeline;
  readonly health: FeedHealth;
}

/** How long a Kraken stream may stay silent before it is reopened (the others: the provider's 15 s). */
const KRAKEN_STALL_AFTER_MS = 60_000;

/**
 * The providers, by name: OTC, and each exchange through ccxt. Adding a source is a class that
 * implements `PriceProvider` and a case here (docs/feeds.md).
 */
function createProvider(
  name: string,
  role: FeedRole,
  options: ProviderPoolOptions,
): PriceProvider | undefined {
  if (name === OTC_PROVIDER) {
    return new OtcProvider({
      clock: options.clock,
      seed: options.seed,
      tickIntervalMs: options.tickIntervalMs,
    });
  }
  const exchange = CCXT_EXCHANGES[name];
  if (!exchange) return undefined;
  options.logger.info(
    { provider: name, role, endpoints: options.endpoints[name] ?? 'public' },
    'exchange provider started',
  );
  return new CcxtProvider({
    name,
    exchange,
    // Kraken's ticker channel speaks only when the pair trades, and its pairs share one socket, which
    // a stall reopens for all of them: a quiet pair must not churn the others every 15 s.
    ...(exchange === 'kraken' ? { stallAfterMs: KRAKEN_STALL_AFTER_MS } : {}),
    clock: options.clock,
    logger: options.logger.child({ provider: name, role }),
    observer: options.health.observer(role),
    ...(options.endpoints[name] ? { endpoints: options.endpoints[name] } : {}),
  });
}

/**
 * A pair's own feed goes to the pipeline's chain, candles and bus; a reference feed only to the
 * reference ticks. Both pass the feed's health on the way.
 */
function sinkFor(role: FeedRole, name: string, options: ProviderPoolOptions): TickSink {
  const { pipeline, health } = options;
  if (role === 'primary') {
    return {
      accepting: () => pipeline.accepting(),
      push: (ticks) => {
        for (const tick of ticks) health.tick(tick.pair, role, tick.price, tick.atMs);
        pipeline.push(ticks);
      },
    };
  }
  return {
    accepting: () => true,
    push: (ticks) => {
      for (const tick of ticks) health.tick(tick.pair, role, tick.price, tick.atMs);
      pipeline.pushReference(ticks, name);
    },
  };
}

/** One provider per name and role, created and started on first use. */
export function providerPool(options: ProviderPoolOptions): ProviderPool & { stop(): void } {
  const providers = new Map<string, { role: FeedRole; provider: PriceProvider }>();
  return {
    get(name, role) {
      const key = `${role}|${name}`;
      const existing = providers.get(key);
      if (existing) return existing.provider;
      const provider = createProvider(name, role, options);
      if (!provider) return undefined;
      provider.start(sinkFor(role, name, options));
      providers.set(key, { role, provider });
      return provider;
    },
    stop() {
      for (const { provider } of providers.values()) provider.stop();
    },
  };
}
