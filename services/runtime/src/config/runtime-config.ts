import { env, readEnv, type ConfigOf } from './env';

/**
 * The variables every Updown process reads. Services extend this spec with their own.
 * This file and each service's `config.ts` are the only places that look at `process.env`.
 */
export const runtimeConfigSpec = {
  UPDOWN_ENV: env.oneOf(['development', 'test', 'production'], 'development'),
  LOG_LEVEL: env.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  DATABASE_URL: env.postgresUrl(),
  DATA_DIR: env.string('.data'),
  EMBEDDED_PG_PORT: env.port(54329),
  DB_POOL_MAX: env.int(10, { min: 1, max: 200 }),
  BUS: env.oneOf(['memory', 'kafka'], 'memory'),
  KAFKA_BROKERS: env.list(['127.0.0.1:9092']),
  KAFKA_CLIENT_ID: env.string('updown'),
  /** The Ed25519 key that signs checkpoints and receipts (see signing/signing-keys.ts); production requires it. */
  SIGNING_KEY: env.optionalString(),
  /** Public keys (base64url) of earlier signing keys, still published as retired. */
  SIGNING_KEYS_RETIRED: env.list([]),
  SHUTDOWN_TIMEOUT_MS: env.int(10_000, { min: 100, max: 120_000 }),
};

export type RuntimeConfig = ConfigOf<typeof runtimeConfigSpec>;

export function loadRuntimeConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): RuntimeConfig {
  return readEnv(runtimeConfigSpec, source);
}

/**
 * The user libpq and node-postgres fall back to when a connection URL names none (`$PGUSER`), or
 * undefined when it is unset.
 */
export function libpqDefaultUser(
  source: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  return source.PGUSER;
}
