import type { MigrationSet } from '@updown/runtime';

/** Settlement owns no table yet; its set is empty so the migrator's package order stays complete. */
export const settlementMigrations: MigrationSet = { owner: 'settlement', migrations: {} };
