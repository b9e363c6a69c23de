import { accountsMigrations } from '@updown/accounts';
import { orderMigrations } from '@updown/order';
import { priceIngestMigrations } from '@updown/price-ingest';
import { runtimeMigrations, type MigrationSet } from '@updown/runtime';
import { settlementMigrations } from '@updown/settlement';
import { walletMigrations } from '@updown/wallet';

/**
 * Every package's migrations, the list `npm start`, the gateway running alone (`npm run
 * start:gateway`, whose `/readyz` waits for it), `npm run db:migrate`, `npm run admin:create`, the
 * test template, the benchmarks and the chaos suite migrate with. Each package exports its own set;
 * the platform, which composes the processes, is the one place that names them all.
 * `migrateToLatest` runs the sets in package order (`MIGRATION_OWNERS`) whatever the order here.
 */
export const allMigrations: readonly MigrationSet[] = [
  runtimeMigrations,
  accountsMigrations,
  priceIngestMigrations,
  walletMigrations,
  orderMigrations,
  settlementMigrations,
];
