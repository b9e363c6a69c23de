import {
  createBus,
  createLogger,
  createMetricsRegistry,
  failureFields,
  Lifecycle,
  migrateToLatest,
  openDatabase,
  OutboxRelay,
  systemClock,
  type Bus,
  type Clock,
  type Logger,
  type Registry,
  type ResolvedDatabase,
} from '@updown/runtime';
import {
  createAdminPlugin,
  createAuthPlugin,
  createLeaderboardPlugin,
  createMarketPlugin,
  createTradesPlugin,
  createWalletPlugin,
  ensureAdminFromEnv,
  marketPluginOptions,
  startBonusExpiry,
  startGateway,
  type EvidenceLoader,
  type RunningGateway,
} from '@updown/gateway';
import { startLatestPrices, startPriceIngest } from '@updown/price-ingest';
import { createPlaceTrade } from '@updown/order';
import { loadSettlementEvidence, startSettlement } from '@updown/settlement';
import type { PlatformConfig } from './config';

export interface RunningPlatform {
  readonly config: PlatformConfig;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly database: ResolvedDatabase;
  readonly bus: Bus;
  readonly gateway: RunningGateway;
  readonly lifecycle: Lifecycle;
  /** Stops everything in order; resolves true when every step finished in time. */
  stop(): Promise<boolean>;
}

export interface PlatformOptions {
  readonly logger?: Logger;
  readonly clock?: Clock;
}

/**
 * The composition root of the single process: database (external or embedded) and migrations,
 * the bus and the outbox relay, price-ingest, settlement, the order service, then the gateway last so it only
 * takes traffic once everything behind it runs. Shutdown runs the other way round: HTTP first,
 * then the feed and consumers, then the relay and bus, then the database.
 */
export async function startPlatform(
  config: PlatformConfig,
  options: PlatformOptions = {},
): Promise<RunningPlatform> {
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'updown' });
  const clock = options.clock ?? systemClock;
  const registry = createMetricsRegistry({ service: 'updown' });
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  const stops: Array<{ name: string; run: () => Promise<void> }> = [];
  const stopLater = (name: string, run: () => Promise<void>) => stops.unshift({ name, run });

  try {
    const database = await openDatabase(config, logger, 'updown');
    stopLater('database', () => database.shutdown());
    const applied = await migrateToLatest(database.db);
    logger.info({ database: database.description, applied }, 'database ready');
    await ensureAdminFromEnv(database.db, config, logger);

    const bus = await createBus(config, { logger, registry, clock });
    stopLater('bus', () => bus.close());
    const relay = new OutboxRelay({ db: database.db, bus, logger, registry, clock });
    relay.start();
    stopLater('outbox relay', () => relay.stop());

    const priceIngest = await startPriceIngest({ db: database.db, bus, logger, registry, clock, config });
    stopLater('price feed', () => priceIngest.stop());
    const latestPrices = await startLatestPrices({ db: database.db, bus, clock, logger });
    stopLater('latest prices', () => latestPrices.stop());

    const settlement = await startSettlement({
      db: database.db,
      bus,
      logger,
      registry,
      clock,
      onCommitted: () => relay.kick(),
    });
    stopLater('settlement', () => settlement.stop());

    const placeTrade = createPlaceTrade({
      db: database.db,
      prices: latestPrices,
      clock,
      registry,
      onCommitted: () => relay.kick(),
    });
    const bonusExpiry = startBonusExpiry({ db: database.db, clock, logger });
    stopLater('bonus expiry', () => bonusExpiry.stop());
    const loadEvidence: EvidenceLoader = (tradeId) => loadSettlementEvidence(database.db, tradeId);

    const gateway = await startGateway({
      config,
      logger,
      registry,
      db: database.db,
      plugins: [
        createAuthPlugin({ db: database.db, config, logger, clock }),
        createMarketPlugin({
          db: database.db,
          bus,
          logger,
          registry,
          clock,
          options: marketPluginOptions(config),
        }),
        createTradesPlugin({ db: database.db, order: { placeTrade }, clock, loadEvidence }),
        createWalletPlugin({ db: database.db, clock }),
        createAdminPlugin({ db: database.db, clock }),
        createLeaderboardPlugin({ db: database.db, clock }),
      ],
    });
    stopLater('http', () => gateway.close());
    for (const step of stops) lifecycle.add(step.name, step.run);
    logger.info({ url: `http://${displayHost(config.HOST)}:${gateway.port}` }, 'Updown is up');
    return {
      config,
      logger,
      registry,
      database,
      bus,
      gateway,
      lifecycle,
      stop: () => lifecycle.shutdown('stop requested'),
    };
  } catch (error) {
    logger.fatal(failureFields(error), 'start-up failed');
    for (const step of stops) lifecycle.add(step.name, step.run);
    await lifecycle.shutdown('start-up failed');
    throw error;
  }
}

function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '127.0.0.1' ? 'localhost' : host;
}
