import { ConfigError, env, readEnv, runtimeConfigSpec, type ConfigOf } from '@updown/runtime';
import { parseExchangeEndpoints } from './feed/exchange-endpoints';

/** The seed used when `PRICE_FEED_SEED` is unset: fine for development and tests, refused in production. */
export const DEFAULT_PRICE_FEED_SEED = 20_260_101;

/**
 * price-ingest's variables on top of the ones every process reads. This file is the only place in
 * the service that reads `process.env`.
 */
export const priceIngestConfigSpec = {
  ...runtimeConfigSpec,
  /** Seeds the OTC random walks; with the feed's start instant it fixes every price. */
  PRICE_FEED_SEED: env.int(DEFAULT_PRICE_FEED_SEED, { min: 0, max: 4_294_967_295 }),
  TICK_INTERVAL_MS: env.int(250, { min: 20, max: 60_000 }),
  /** How often buffered ticks are written (and then published). */
  TICK_FLUSH_INTERVAL_MS: env.int(200, { min: 10, max: 10_000 }),
  /** Most ticks per write; a fuller buffer is written at once without waiting for the interval. */
  TICK_BATCH_MAX: env.int(500, { min: 1, max: 10_000 }),
  /** Most ticks held while the database is slow or down; the feed pauses rather than grow past it. */
  TICK_BUFFER_MAX: env.int(20_000, { min: 100, max: 1_000_000 }),
  TICK_RETENTION_DAYS: env.int(7, { min: 1, max: 3650 }),
  TICK_RETENTION_INTERVAL_MS: env.int(60_000, { min: 1_000, max: 86_400_000 }),
  /** Rows per retention delete statement; each is its own short transaction. */
  TICK_RETENTION_CHUNK: env.int(5_000, { min: 100, max: 100_000 }),
  /** How often each pair's tick chain gets a signed checkpoint (docs/receipts.md). */
  CHECKPOINT_INTERVAL_MS: env.int(60_000, { min: 200, max: 3_600_000 }),
  /** How soon a pair an admin adds, enables or disables is picked up. */
  PAIRS_POLL_INTERVAL_MS: env.int(2_000, { min: 100, max: 60_000 }),
  /**
   * Where the exchange providers connect instead of the real exchanges, as JSON:
   * `{"BINANCE":{"rest":"http://127.0.0.1:9001","ws":"ws://127.0.0.1:9001/ws"}}` (local fakes, a
   * proxy). Empty: the exchanges' public endpoints.
   */
  EXCHANGE_ENDPOINTS: env.string(''),
  /** How often the feeds' health is written to `market_feed_status` and the metrics. */
  FEED_REPORT_INTERVAL_MS: env.int(1_000, { min: 100, max: 60_000 }),
  /** Most pairs ticking at once. */
  PRICE_FEEDS_MAX: env.int(200, { min: 1, max: 1_000 }),
  /** `/healthz`, `/readyz` and `/metrics` when running alone (the single process serves them on the gateway). */
  PRICE_INGEST_HOST: env.string('127.0.0.1'),
  PRICE_INGEST_PORT: env.port(8081),
};

export type PriceIngestConfig = ConfigOf<typeof priceIngestConfigSpec>;

/** What `startPriceIngest` needs; the single process passes its own wider config. */
export type PriceIngestServiceConfig = Pick<
  PriceIngestConfig,
  | 'PRICE_FEED_SEED'
  | 'TICK_INTERVAL_MS'
  | 'TICK_FLUSH_INTERVAL_MS'
  | 'TICK_BATCH_MAX'
  | 'TICK_BUFFER_MAX'
  | 'TICK_RETENTION_DAYS'
  | 'TICK_RETENTION_INTERVAL_MS'
  | 'TICK_RETENTION_CHUNK'
  | 'PAIRS_POLL_INTERVAL_MS'
  | 'PRICE_FEEDS_MAX'
  | 'CHECKPOINT_INTERVAL_MS'
  | 'EXCHANGE_ENDPOINTS'
  | 'FEED_REPORT_INTERVAL_MS'
>;

export function loadPriceIngestConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): PriceIngestConfig {
  const problems: string[] = [];
  let config: PriceIngestConfig | undefined;
  try {
    config = readEnv(priceIngestConfigSpec, source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  problems.push(...seedProblems(source));
  try {
    parseExchangeEndpoints(source.EXCHANGE_ENDPOINTS ?? '');
  } catch (error) {
    problems.push(`EXCHANGE_ENDPOINTS: ${(error as Error).message}`);
  }
  if (config && config.TICK_BUFFER_MAX < config.TICK_BATCH_MAX) {
    problems.push('TICK_BUFFER_MAX must be at least TICK_BATCH_MAX');
  }
  if (problems.length > 0 || !config) throw new ConfigError(problems);
  return config;
}

/**
 * Whoever knows the seed and the algorithm (which is public) can compute the OTC prices ahead of
 * time and win every trade. Production must therefore choose its own secret seed.
 */
export function seedProblems(source: Readonly<Record<string, string | undefined>>): string[] {
  const production = source.UPDOWN_ENV?.trim() === 'production';
  const seed = source.PRICE_FEED_SEED?.trim();
  if (!production) return [];
  if (seed === undefined || seed === '' || Number(seed) === DEFAULT_PRICE_FEED_SEED) {
    return ['PRICE_FEED_SEED must be set to a secret random integer in production (the default is public)'];
  }
  return [];
}
