/** The product's runtime pieces the harness uses, imported in one place. */
export {
  createDb,
  freePort,
  migrateToLatest,
  parseSigningKey,
  signingKeyFrom,
  startEmbeddedPostgres,
  type DbHandle,
} from '@updown/runtime';
export { allMigrations } from '@updown/platform/migrations';
export { mokapiIsolation, startMokapi, waitFor, type MokapiBroker } from '@updown/runtime/testing';
