import { loadRuntimeConfig } from '../config/runtime-config';
import { failureText } from '../failure-text';
import { createLogger } from '../logger';
import { openDatabase } from './database';
import { migrateToLatest } from './migrator';

/** `npm run db:migrate`: applies pending migrations to `DATABASE_URL` or the embedded database. */
async function main(): Promise<void> {
  const config = loadRuntimeConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'db-migrate' });
  const database = await openDatabase(config, logger, 'updown-migrate');
  try {
    const applied = await migrateToLatest(database.db);
    logger.info(
      { applied },
      applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date',
    );
  } finally {
    await database.shutdown();
  }
}

main().catch((error: unknown) => {
  console.error(failureText(error));
  process.exit(1);
});
