import { testPostgresSetup } from '@updown/runtime/testing/global-setup';
import { allMigrations } from '../migrations';

/** Vitest global setup: the test PostgreSQL server and its template, migrated with every package's migrations. */
export default testPostgresSetup(allMigrations);
