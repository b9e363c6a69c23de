import {
  ConfigError,
  createLogger,
  createMetricsRegistry,
  Lifecycle,
  migrateToLatest,
  openDatabase,
} from '@updown/runtime';
import { createAuthPlugin, ensureAdminFromEnv } from './auth/index';
import { loadGatewayConfig, type GatewayConfig } from './config';
import { startGateway, type RunningGateway } from './server';

/**
 * `npm run start:gateway`: the gateway alone, for working on the API. The single-process
 * composition of every service lives in services/platform and calls `startGateway` the same way.
 */
async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = loadGatewayConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'gateway' });
  const registry = createMetricsRegistry({ service: 'gateway' });
  // Steps run in the order added: stop HTTP first so no request meets a closed pool.
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.handleSignals();

  let gateway: RunningGateway | undefined;
  lifecycle.add('http', async () => gateway?.close());
  try {
    const database = await openDatabase(config, logger, 'updown-gateway');
    lifecycle.add('database', () => database.shutdown());
    const applied = await migrateToLatest(database.db);
    logger.info({ database: database.description, applied }, 'database ready');
    await ensureAdminFromEnv(database.db, config, logger);
    gateway = await startGateway({
      config,
      logger,
      registry,
      db: database.db,
      plugins: [createAuthPlugin({ db: database.db, config, logger })],
    });
  } catch (error) {
    logger.fatal({ err: error }, 'gateway failed to start');
    await lifecycle.shutdown('start-up failed');
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
