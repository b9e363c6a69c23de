import { everyMigration } from '@updown/gateway';

/**
 * Every package's migrations, the list `npm start`, `npm run db:migrate`, the test template, the
 * benchmarks and the chaos suite migrate with. It is the gateway's own list: the gateway sits on
 * every other package, so it already names them all for running alone, and one list cannot drift.
 * `migrateToLatest` runs the sets in package order whatever the order in it.
 */
export const allMigrations = everyMigration;
