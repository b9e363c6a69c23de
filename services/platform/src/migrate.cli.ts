import { createLogger, failureText, loadRuntimeConfig, migrateToLatest, openDatabase } from '@updown/runtime';
import { allMigrations } from './migrations';

/** `npm run db:migrate`: applies every package's pending migrations to `DATABASE_URL` or the embedded database. */
async function main(): Promise<void> {
  const config = loadRuntimeConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'db-migrate' });
  const database = await openDatabase(config, logger, 'updown-migrate');
  try {
    const applied = await migrateToLatest(database.db, allMigrations);
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
