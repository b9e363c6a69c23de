import { resolveSigningKey, runStandalone, runtimeMigrations } from '@updown/runtime';
import { loadPriceIngestConfig } from './config';
import { priceIngestMigrations } from './db/migrations/index';
import { startPriceIngest } from './price-ingest.service';

/**
 * `npm run start:price-ingest`: the market data service alone. The single process
 * (services/platform) calls `startPriceIngest` the same way with its shared bus and database.
 * Stopping it first writes and publishes the ticks it still buffers, while the bus and pool are open.
 */
runStandalone({
  name: 'price-ingest',
  loadConfig: loadPriceIngestConfig,
  opsAddress: (config) => ({ host: config.PRICE_INGEST_HOST, port: config.PRICE_INGEST_PORT }),
  memoryBusWarning: 'in-memory bus: ticks reach only consumers inside this process',
  migrations: [runtimeMigrations, priceIngestMigrations],
  start: async ({ config, database, bus, logger, registry, clock }) =>
    startPriceIngest({
      db: database.db,
      bus,
      logger,
      registry,
      clock,
      config,
      signingKey: await resolveSigningKey(config, logger),
    }),
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
