import {
  ConfigError,
  createBus,
  createLogger,
  createMetricsRegistry,
  failureFields,
  Lifecycle,
  migrateToLatest,
  openDatabase,
  resolveSigningKey,
  systemClock,
  type Repeating,
} from '@updown/runtime';
import { createHttpOrderPort, serviceToken } from '@updown/order';
import {
  startBonusExpiry,
  startPaymentRecovery,
  type BonusExpiryJob,
  type PaymentRecoveryJob,
} from '@updown/wallet';
import { ensureAdminFromEnv, startIdentityRetention } from '@updown/accounts';
import { accountOpener, type RunningGateway } from '@updown/gateway';
import { allMigrations } from './migrations';
import { serveGateway } from './serve-gateway';
import { loadGatewayStandaloneConfig, type GatewayStandaloneConfig } from './gateway-standalone.config';

/**
 * `npm run start:gateway`: the public API, the market WebSocket and the console as their own
 * process. Placements go to the order service over HTTP (`ORDER_URL`, `SERVICE_TOKEN`); ticks for
 * the socket come from `market.ticks.v1` on the bus (each instance in its own consumer group, so
 * every gateway fans every tick out to its own clients); everything else reads and writes
 * PostgreSQL directly. Run any number of them behind a load balancer.
 */
async function main(): Promise<void> {
  let config: GatewayStandaloneConfig;
  try {
    config = loadGatewayStandaloneConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'gateway' });
  const registry = createMetricsRegistry({ service: 'gateway' });
  const clock = systemClock;
  // Steps run in the order added: stop HTTP first so no request meets a closed bus or pool.
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  let gateway: RunningGateway | undefined;
  let bonusExpiry: BonusExpiryJob | undefined;
  let paymentRecovery: PaymentRecoveryJob | undefined;
  let identityRetention: Repeating<number> | undefined;
  let closeOrderClient: (() => Promise<void>) | undefined;
  let closeBus: (() => Promise<void>) | undefined;
  let closeDatabase: (() => Promise<void>) | undefined;
  lifecycle.add('http', async () => gateway?.close());
  // After HTTP: a placement still being answered keeps its connection to the order service.
  lifecycle.add('order client', async () => closeOrderClient?.());
  lifecycle.add('bonus expiry', async () => bonusExpiry?.stop());
  lifecycle.add('payment recovery', async () => paymentRecovery?.stop());
  lifecycle.add('identity retention', async () => identityRetention?.stop());
  lifecycle.add('bus', async () => closeBus?.());
  lifecycle.add('database', async () => closeDatabase?.());
  try {
    const database = await openDatabase(config, logger, 'updown-gateway');
    closeDatabase = () => database.shutdown();
    const applied = await migrateToLatest(database.db, allMigrations);
    logger.info({ database: database.description, applied }, 'database ready');
    await ensureAdminFromEnv(database.db, config, logger, { openAccount: accountOpener(database.db) });
    const bus = await createBus(config, { logger, registry, clock });
    closeBus = () => bus.close();
    if (config.BUS === 'memory') {
      logger.warn('in-memory bus: the market socket hears no ticks from price-ingest in another process');
    }
    const order = createHttpOrderPort({
      url: config.ORDER_URL,
      serviceToken: serviceToken(config),
      timeoutMs: config.ORDER_TIMEOUT_MS,
    });
    closeOrderClient = () => order.close();
    paymentRecovery = await startPaymentRecovery({ db: database.db, clock, logger });
    bonusExpiry = startBonusExpiry({ db: database.db, clock, logger });
    identityRetention = startIdentityRetention({ db: database.db, clock, logger });
    gateway = await serveGateway({
      config,
      logger,
      registry,
      clock,
      db: database.db,
      bus,
      order,
      // The public half of the key price-ingest and settlement sign with (the same SIGNING_KEY or DATA_DIR).
      keySet: (await resolveSigningKey(config, logger)).keySet,
    });
  } catch (error) {
    logger.fatal(failureFields(error), 'gateway failed to start');
    await lifecycle.shutdown('start-up failed');
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
