import {
  createLogger,
  createMetricsRegistry,
  Lifecycle,
  migrateToLatest,
  openDatabase,
  type Logger,
  type Registry,
  type ResolvedDatabase,
} from '@updown/runtime';
import { startGateway, type RunningGateway } from '@updown/gateway';
import type { PlatformConfig } from './config';

export interface RunningPlatform {
  readonly config: PlatformConfig;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly database: ResolvedDatabase;
  readonly gateway: RunningGateway;
  readonly lifecycle: Lifecycle;
  /** Stops everything in order; resolves true when every step finished in time. */
  stop(): Promise<boolean>;
}

/**
 * The composition root of the single process: database (external or embedded), migrations, then
 * each service on the shared bus, the gateway last so it only takes traffic once all is ready.
 * Shutdown runs the other way: HTTP first, then consumers, then the database.
 */
export async function startPlatform(config: PlatformConfig, options: { logger?: Logger } = {}): Promise<RunningPlatform> {
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'updown' });
  const registry = createMetricsRegistry({ service: 'updown' });
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  // Steps run in the order added; HTTP is added first so no request meets a closed pool.
  let gateway: RunningGateway | undefined;
  lifecycle.add('http', async () => gateway?.close());
  let database: ResolvedDatabase | undefined;
  try {
    database = await openDatabase(config, logger, 'updown');
    const opened = database;
    const applied = await migrateToLatest(opened.db);
    logger.info({ database: opened.description, applied }, 'database ready');

    gateway = await startGateway({ config, logger, registry, db: opened.db });
    lifecycle.add('database', () => opened.shutdown());
    logger.info({ url: `http://${displayHost(config.HOST)}:${gateway.port}` }, 'Updown is up');
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    if (database) lifecycle.add('database', () => database!.shutdown());
    await lifecycle.shutdown('start-up failed');
    throw error;
  }
  const running = gateway;
  return {
    config,
    logger,
    registry,
    database,
    gateway: running,
    lifecycle,
    stop: () => lifecycle.shutdown('stop requested'),
  };
}

function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '127.0.0.1' ? 'localhost' : host;
}
