import {
  ConfigError,
  createBus,
  createLogger,
  createMetricsRegistry,
  Lifecycle,
  migrateToLatest,
  openDatabase,
  systemClock,
  type Bus,
  type ResolvedDatabase,
  startOpsServer,
  type OpsServer,
} from '@updown/runtime';
import { loadPriceIngestConfig, type PriceIngestConfig } from './config';
import { startPriceIngest, type RunningPriceIngest } from './price-ingest.service';

/**
 * `npm run start:price-ingest`: the market data service alone. The single process
 * (services/platform) calls `startPriceIngest` the same way with its shared bus and database.
 */
async function main(): Promise<void> {
  let config: PriceIngestConfig;
  try {
    config = loadPriceIngestConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'price-ingest' });
  const registry = createMetricsRegistry({ service: 'price-ingest' });
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  // Steps run in the order added: the feed stops first and writes and publishes what it still
  // buffers, so the bus and the pool must still be open then. A signal during start-up waits for
  // the start (the first backfill can take seconds) and then stops what it started.
  let stopping = false;
  let starting: Promise<RunningPriceIngest> | undefined;
  let bus: Bus | undefined;
  let database: ResolvedDatabase | undefined;
  let ops: OpsServer | undefined;
  lifecycle.add('price feed', async () => {
    stopping = true;
    const service = await starting?.catch(() => undefined);
    await service?.stop();
  });
  lifecycle.add('operations endpoints', async () => ops?.close());
  lifecycle.add('bus', async () => bus?.close());
  lifecycle.add('database', async () => database?.shutdown());
  try {
    database = await openDatabase(config, logger, 'updown-price-ingest');
    const applied = await migrateToLatest(database.db);
    logger.info({ database: database.description, applied }, 'database ready');
    bus = await createBus(config, { logger, registry });
    if (config.BUS === 'memory') logger.warn('in-memory bus: ticks reach only consumers inside this process');
    starting = startPriceIngest({ db: database.db, bus, logger, registry, clock: systemClock, config });
    await starting;
    if (stopping) return;
    ops = await startOpsServer({
      host: config.PRICE_INGEST_HOST,
      port: config.PRICE_INGEST_PORT,
      registry,
      db: database.db,
    });
    logger.info(
      { address: `http://${config.PRICE_INGEST_HOST}:${ops.port}` },
      'operations endpoints listening',
    );
  } catch (error) {
    if (stopping) return;
    logger.fatal({ err: error }, 'price-ingest failed to start');
    await lifecycle.shutdown('start-up failed');
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
