export { DomainError } from './errors';
export { ConfigError, env, readEnv, type ConfigOf, type ConfigSpec, type Reader } from './config/env';
export { loadRuntimeConfig, runtimeConfigSpec, type RuntimeConfig } from './config/runtime-config';
export { readOrCreateSecretFile } from './config/data-dir-secret';
export { createLogger, REDACTED_PATHS, redactUrl, type Logger } from './logger';
export {
  createMetricsRegistry,
  Counter,
  Gauge,
  Histogram,
  observeDbPool,
  readOncePerScrape,
  Registry,
} from './metrics';
export { Lifecycle, type ShutdownStep } from './lifecycle';
export { startOpsServer, type OpsServer } from './ops-server';
export { runStandalone, type StandaloneContext, type StandaloneService } from './standalone';
export { ManualClock, OffsetClock, systemClock, type Clock } from './clock';
export { repeatEvery, type RepeatOptions, type Repeating } from './repeat';
export { meterJob, onJobRun, type JobRun } from './job-meter';
export { createLoopSlicer, JOB_SLICE_MS, type LoopSlicer } from './loop-slicer';
export { createDb, poolOf, withDefaultUser, type DbHandle } from './db/pool';
export {
  connectionHosts,
  DatabaseUnavailable,
  hostLabel,
  isDatabaseUnavailable,
  PrimaryLocator,
  type ConnectionHosts,
  type DatabaseHost,
} from './db/primary-connector';
export {
  allColumns,
  executePrepared,
  fixedStatement,
  PgTransaction,
  preparedStatement,
  PREPARED_TEXTS_MAX,
  runPgTransaction,
  selectList,
  together,
  unnamedStatement,
  type SqlTransaction,
  type StatementTarget,
} from './db/prepared';
export {
  byteaArray,
  nullableNumberArray,
  nullableTextArray,
  numberArray,
  textArray,
  uncachedTextArray,
} from './db/array-literals';
export type { Database, NullableTimestamp, Timestamp } from './db/schema';
export { offlineDb, type OfflineDbOptions } from './db/offline';
export { openDatabase, type ResolvedDatabase } from './db/database';
export { freePort, startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded';
export { EmbeddedPostgresError } from './db/embedded-access';
export { failureFields, failureText, isOperatingError } from './failure-text';
export {
  migrateToLatest,
  migrationsApplied,
  MigrationFailed,
  MIGRATION_OWNERS,
  runtimeMigrations,
  type MigrationOwner,
  type MigrationSet,
} from './db/migrator';
export * from './bus/index';
export * from './outbox/index';
export {
  ed25519Thumbprint,
  generateSigningKey,
  parseSigningKey,
  resolveSigningKey,
  SIGNING_KEY_FILE,
  signingKeyFrom,
  type KeySet,
  type PublicSigningJwk,
  type Signature,
  type SigningKey,
} from './signing/signing-keys';
