import os from 'node:os';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { libpqDefaultUser } from '../config/runtime-config';
import { meterJobConnections } from '../job-meter';
import { preparedName } from './prepared';
import {
  connectionHosts,
  DatabaseUnavailable,
  inRecovery,
  isDatabaseUnavailable,
  PrimaryLocator,
  type DatabaseHost,
} from './primary-connector';
import type { Database } from './schema';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * `bigint` columns hold integer cents and counts. They are parsed to JavaScript numbers, refusing
 * any value outside the safe-integer range rather than silently losing precision.
 */
function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed))
    throw new RangeError(`int8 value ${value} is outside the safe integer range`);
  return parsed;
}

const parseNumeric = (value: string) => Number(value);

// Asked once per column of every result (node-postgres looks the parsers up per statement), so
// it hands out the same functions rather than a new one each time.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return parseInt8;
    if (oid === NUMERIC_OID) return parseNumeric;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * libpq (psql) connects as the operating-system user when a URL names none; node-postgres only
 * looks at `$USER`, which service managers and CI often leave unset. Fill the user in the same way
 * libpq does so `postgres://127.0.0.1:5432/test` means the same thing to psql and to Updown.
 */
export function withDefaultUser(url: string, pgUser: string | undefined = libpqDefaultUser()): string {
  const parsed = new URL(url);
  if (parsed.username !== '' || pgUser) return url;
  parsed.username = os.userInfo().username;
  return parsed.toString();
}

/**
 * A client that sends the texts opted in through `executePrepared` as named statements (parsed and
 * planned once per connection) and everything else exactly as `pg.Client` does.
 */
class PreparingClient extends pg.Client {}
const plainQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
PreparingClient.prototype.query = function query(this: pg.Client, ...args: unknown[]) {
  const [text, values] = args;
  const name = args.length <= 2 && typeof text === 'string' ? preparedName(text) : undefined;
  if (name === undefined) return plainQuery.apply(this, args);
  return plainQuery.call(this, { name, text: text as string, values: values as unknown[] | undefined });
} as typeof pg.Client.prototype.query;

/**
 * Server settings every engine connection runs with, sent in the startup packet (no extra round
 * trip, and they hold whatever the server's, database's or role's defaults say).
 *
 * `jit = off`: PostgreSQL JIT-compiles any statement whose estimated cost passes `jit_above_cost`,
 * and the placement's set-based statements (unnest of parameter arrays, guessed at 10 or 100 rows
 * each) are costed above it although they touch a few rows. Compiling took longer than running
 * them, on every execution: on a stock PostgreSQL 15 (`jit = on`), 16 placements in flight ran at
 * 56-60/s, p50 285 ms, against 698/s, p50 22 ms, with JIT off. Nothing the engine runs is a long
 * analytical query that JIT would pay for. A server built without LLVM (the embedded one) takes
 * the setting as well; it simply had nothing to turn off.
 */
export const ENGINE_SESSION_SETTINGS: Readonly<Record<string, string>> = { jit: 'off' };

/**
 * The libpq `options` value for a connection: the URL's own `options` (node-postgres lets the URL's
 * value win over the config's, so it is taken out of the URL and kept), then the engine's settings,
 * which come last so a URL cannot turn them back on.
 */
export function connectionOptions(url: string): { connectionString: string; options: string } {
  const parsed = new URL(url);
  const own = parsed.searchParams.get('options');
  parsed.searchParams.delete('options');
  const engine = Object.entries(ENGINE_SESSION_SETTINGS).map(([name, value]) => `-c ${name}=${value}`);
  return {
    connectionString: own === null ? url : parsed.toString(),
    options: [...(own ? [own] : []), ...engine].join(' '),
  };
}

type ConnectCallback = (error: Error | undefined) => void;
const plainConnect = pg.Client.prototype.connect as unknown as (this: pg.Client) => Promise<unknown>;
const preparingQuery = PreparingClient.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * A client class for a pool over several hosts: each new connection goes to the host the locator
 * finds writable, and is checked once more after it opens (a server demoted between the search and
 * the connection answers read-only). A connection whose statement fails because the server went
 * away or turned read-only casts doubt on its host, so the next connection searches again, and is
 * ended when its holder releases it (`retired`), so the pool keeps no connection to a standby.
 */
function primaryClientClass(locator: PrimaryLocator, retired: WeakSet<pg.Client>): typeof pg.Client {
  class PrimaryClient extends PreparingClient {}
  const hostOf = new WeakMap<pg.Client, DatabaseHost>();
  PrimaryClient.prototype.connect = function connect(this: pg.Client, callback?: ConnectCallback) {
    const connecting = (async () => {
      const host = await locator.writable();
      hostOf.set(this, host);
      this.host = host.host;
      this.port = host.port;
      try {
        await plainConnect.call(this);
      } catch (error) {
        locator.suspect(host);
        throw error;
      }
      if (await inRecovery(this)) {
        locator.suspect(host);
        await this.end().catch(() => undefined);
        throw new DatabaseUnavailable();
      }
      this.on('error', () => locator.suspect(host));
    })();
    if (!callback) return connecting;
    connecting.then(
      () => callback(undefined),
      (error: Error) => callback(error),
    );
    return undefined;
  } as typeof pg.Client.prototype.connect;
  PrimaryClient.prototype.query = function query(this: pg.Client, ...args: unknown[]) {
    const result = preparingQuery.apply(this, args);
    if (result instanceof Promise) {
      result.then(undefined, (error: unknown) => {
        if (!isDatabaseUnavailable(error)) return;
        const host = hostOf.get(this);
        if (host) locator.suspect(host);
        retired.add(this);
      });
    }
    return result;
  } as typeof pg.Client.prototype.query;
  return PrimaryClient;
}

/** The pool under each engine `Kysely` that `createDb` made, for the paths that hold a client directly. */
const pools = new WeakMap<Kysely<Database>, pg.Pool>();

/**
 * The pg pool a `Kysely` from `createDb` runs on; undefined for any other (a test's own instance
 * with a logger or plugins), whose callers then take kysely's own transaction instead.
 */
export function poolOf(db: Kysely<Database>): pg.Pool | undefined {
  return pools.get(db);
}

export interface DbHandle {
  readonly pool: pg.Pool;
  readonly db: Kysely<Database>;
  /** For a URL of several hosts: which of them takes writes (see primary-connector.ts). */
  readonly primary?: PrimaryLocator;
  close(): Promise<void>;
}

export function createDb(url: string, options: { max?: number; applicationName?: string } = {}): DbHandle {
  const target = connectionHosts(url);
  const connection = connectionOptions(withDefaultUser(target.url));
  const applicationName = options.applicationName ?? 'updown';
  const primary = target.readWrite
    ? new PrimaryLocator(target.hosts, { ...connection, application_name: `${applicationName}-probe` })
    : undefined;
  const retired = new WeakSet<pg.Client>();
  const pool = new pg.Pool({
    ...connection,
    max: options.max ?? 10,
    application_name: applicationName,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    types,
    Client: primary ? primaryClientClass(primary, retired) : PreparingClient,
  });
  // A released connection that met a standby or a failing server is ended here: the pool removes
  // a client that is ending when it comes back, instead of handing it out again.
  if (primary) {
    pool.on('release', (_error: Error | undefined, client: pg.PoolClient) => {
      if (retired.has(client)) void client.end().catch(() => undefined);
    });
  }
  // An idle client that loses its server (PostgreSQL restarted) emits 'error' on the pool; without a
  // listener that would crash the process. The next checkout simply opens a new connection.
  pool.on('error', () => undefined);
  // A client that is checked out but between queries (a transaction waiting on the application)
  // has no pool listener; when its server goes away (`57P01` on a PostgreSQL restart) it emits
  // 'error' with nobody listening, which would crash the process. The query that next uses it
  // fails instead, its transaction rolls back, and the pool discards the broken client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // A periodic job's checkouts are timed as its own (`updown_job_connection_hold_seconds`).
  meterJobConnections(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  let closed = false;
  return {
    pool,
    db,
    ...(primary ? { primary } : {}),
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
