import {
  coalescedKick,
  RELAY_WAKE,
  createBus,
  createLogger,
  createMetricsRegistry,
  failureFields,
  Lifecycle,
  migrateToLatest,
  observeDbPool,
  openDatabase,
  OutboxRelay,
  resolveSigningKey,
  systemClock,
  type Bus,
  type Clock,
  type Logger,
  type Registry,
  type ResolvedDatabase,
} from '@updown/runtime';
import { ensureAdminFromEnv, startIdentityRetention } from '@updown/accounts';
import { accountOpener, type RunningGateway } from '@updown/gateway';
import { startLatestPrices, startPriceIngest } from '@updown/price-ingest';
import { startBonusExpiry, startPaymentRecovery } from '@updown/wallet';
import { createPlaceTrade, openedTradesSource, ORDER_PRODUCER, startToxicityScoring } from '@updown/order';
import {
  SETTLEMENT_PRODUCER,
  settledTradesSource,
  startReceiptIssuer,
  startSettlement,
} from '@updown/settlement';
import type { PlatformConfig } from './config';
import { allMigrations } from './migrations';
import { serveGateway } from './serve-gateway';

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
    observeDbPool(database.pool, registry, database.primary);
    const applied = await migrateToLatest(database.db, allMigrations);
    logger.info({ database: database.description, applied }, 'database ready');
    await ensureAdminFromEnv(database.db, config, logger, { openAccount: accountOpener(database.db) });
    // One key signs the chains' checkpoints and the trades' receipts; the gateway publishes its public half.
    const signingKey = await resolveSigningKey(config, logger);

    const bus = await createBus(config, { logger, registry, clock });
    stopLater('bus', () => bus.close());
    // Every writer of the sources' rows in this process wakes the relay after its commit (below), so
    // the poll is only the safety net for a wake-up lost in a crash: once a second, not ten times.
    const relay = new OutboxRelay(
      {
        db: database.db,
        bus,
        logger,
        registry,
        clock,
        sources: [openedTradesSource(ORDER_PRODUCER), settledTradesSource(SETTLEMENT_PRODUCER)],
      },
      { pollIntervalMs: RELAY_WAKE.pollIntervalMs },
    );
    relay.start();
    stopLater('outbox relay', () => relay.stop());
    const kickRelay = coalescedKick(() => relay.kick(), RELAY_WAKE.kickIntervalMs);
    stopLater('outbox relay kicks', async () => kickRelay.cancel());

    const priceIngest = await startPriceIngest({
      db: database.db,
      bus,
      logger,
      registry,
      clock,
      config,
      signingKey,
    });
    stopLater('price feed', () => priceIngest.stop());
    const latestPrices = await startLatestPrices({ db: database.db, bus, clock, logger });
    stopLater('latest prices', () => latestPrices.stop());

    const settlement = await startSettlement({
      db: database.db,
      bus,
      logger,
      registry,
      clock,
      onCommitted: kickRelay,
    });
    stopLater('settlement', () => settlement.stop());
    const receipts = startReceiptIssuer({
      db: database.db,
      key: signingKey,
      clock,
      logger,
      registry,
      intervalMs: config.RECEIPT_INTERVAL_MS,
      waitMsMax: config.RECEIPT_WAIT_MAX_MS,
    });
    stopLater('receipts', () => receipts.stop());

    const placeTrade = createPlaceTrade({
      db: database.db,
      prices: latestPrices,
      clock,
      registry,
      onCommitted: kickRelay,
    });
    // Payments a crash interrupted between their intent and their result, before the API serves.
    const paymentRecovery = await startPaymentRecovery({ db: database.db, clock, logger });
    stopLater('payment recovery', () => paymentRecovery.stop());
    const bonusExpiry = startBonusExpiry({ db: database.db, clock, logger });
    stopLater('bonus expiry', () => bonusExpiry.stop());
    const toxicity = startToxicityScoring({ db: database.db, clock, logger });
    stopLater('toxicity scoring', () => toxicity.stop());
    const identityRetention = startIdentityRetention({ db: database.db, clock, logger });
    stopLater('identity retention', () => identityRetention.stop());

    const gateway = await serveGateway({
      config,
      logger,
      registry,
      clock,
      db: database.db,
      bus,
      order: { placeTrade },
      keySet: signingKey.keySet,
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
