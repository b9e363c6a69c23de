import type { Logger } from 'pino';
import type { RuntimeConfig } from '../config/runtime-config';
import { startEmbeddedPostgres } from './embedded';
import { createDb, type DbHandle } from './pool';

export interface ResolvedDatabase extends DbHandle {
  /** Where the data lives, for logs: `DATABASE_URL` or `embedded (port N)`. */
  readonly description: string;
  /** Closes the pool and, if this process started the embedded server, stops it. */
  shutdown(): Promise<void>;
}

/** Uses `DATABASE_URL` when set, otherwise the embedded PostgreSQL under `DATA_DIR`. */
export async function openDatabase(
  config: Pick<RuntimeConfig, 'DATABASE_URL' | 'DATA_DIR' | 'EMBEDDED_PG_PORT' | 'DB_POOL_MAX'>,
  logger: Logger,
  applicationName: string,
): Promise<ResolvedDatabase> {
  if (config.DATABASE_URL) {
    const handle = createDb(config.DATABASE_URL, { max: config.DB_POOL_MAX, applicationName });
    return { ...handle, description: 'DATABASE_URL', shutdown: () => handle.close() };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    port: config.EMBEDDED_PG_PORT,
    log: (message) => logger.debug({ postgres: message.trim() }, 'embedded postgres'),
  });
  logger.info(
    { port: embedded.port, dataDir: config.DATA_DIR, started: embedded.owned },
    embedded.owned ? 'started embedded PostgreSQL' : 'using the embedded PostgreSQL already running',
  );
  const handle = createDb(embedded.url, { max: config.DB_POOL_MAX, applicationName });
  return {
    ...handle,
    description: `embedded (port ${embedded.port})`,
    async shutdown() {
      await handle.close();
      await embedded.stop();
    },
  };
}
