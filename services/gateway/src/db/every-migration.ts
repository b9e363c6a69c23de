import { accountsMigrations } from '@updown/accounts';
import { runtimeMigrations, type MigrationSet } from '@updown/runtime';
import { orderMigrations } from '@updown/order';
import { priceIngestMigrations } from '@updown/price-ingest';
import { settlementMigrations } from '@updown/settlement';
import { walletMigrations } from '@updown/wallet';

/**
 * Every package's migrations. The gateway is built on every other package, so this is where the
 * whole list can be named: the gateway running alone (`npm run start:gateway`, `npm run
 * admin:create`) migrates with it and its `/readyz` waits for it, and the platform's
 * `allMigrations` (`npm start`, `npm run db:migrate`, tests) is this same list.
 */
export const everyMigration: readonly MigrationSet[] = [
  runtimeMigrations,
  accountsMigrations,
  priceIngestMigrations,
  walletMigrations,
  orderMigrations,
  settlementMigrations,
];
