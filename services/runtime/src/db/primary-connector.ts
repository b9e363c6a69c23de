import pg from 'pg';
import { DomainError } from '../errors';

/**
 * The writable server among several, for a highly available PostgreSQL (a primary and its
 * standbys, e.g. under pg_auto_failover). node-postgres takes one host per connection and has no
 * `target_session_attrs`, so the platform reads libpq's multi-host URL itself
 * (`postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`, what
 * `pg_autoctl show uri --formation default` prints), asks each server whether it is in recovery,
 * and connects only to the one that is not. Every pool does this on each new connection, so after
 * a failover the next connection finds the new primary with no restart.
 */

export interface DatabaseHost {
  readonly host: string;
  readonly port: number;
}

export interface ConnectionHosts {
  /** The URL's hosts in order; none when it names no host (a Unix socket through `?host=`). */
  readonly hosts: readonly DatabaseHost[];
  /** The URL with its first host only and without `target_session_attrs`, for node-postgres. */
  readonly url: string;
  /** Whether the URL asks for a writable server (`target_session_attrs=read-write`, or primary). */
  readonly readWrite: boolean;
}

const DEFAULT_PORT = 5432;

/**
 * The hosts of a libpq connection URL, in order. A URL with one host and no
 * `target_session_attrs` is what it always was; the rest of the URL (user, database, parameters)
 * applies to every host.
 */
export function connectionHosts(url: string): ConnectionHosts {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/i.exec(url);
  if (!match) throw new Error('The database URL is not a postgres:// URL');
  const [, scheme, userinfo, authority, rest] = match as unknown as [
    string,
    string,
    string | undefined,
    string,
    string,
  ];
  // No host in the URL (a Unix socket named by `?host=/run/postgresql`, or libpq's defaults): one
  // server, as node-postgres reads it.
  if (authority === '') return { hosts: [], url, readWrite: false };
  const hosts = authority.split(',').map((entry) => hostOf(entry));
  const tail = new URL(`${scheme}placeholder${rest}`);
  const attrs = tail.searchParams.get('target_session_attrs');
  tail.searchParams.delete('target_session_attrs');
  if (attrs !== null && !['any', 'read-write', 'primary'].includes(attrs)) {
    throw new Error(`target_session_attrs=${attrs} is not supported; use read-write`);
  }
  const first = hosts[0]!;
  const hostPart = first.host.includes(':') ? `[${first.host}]` : first.host;
  const single = `${scheme}${userinfo === undefined ? '' : `${userinfo}@`}${hostPart}:${first.port}${tail.pathname}${tail.search}${tail.hash}`;
  return { hosts, url: single, readWrite: attrs === 'read-write' || attrs === 'primary' || hosts.length > 1 };
}

function hostOf(entry: string): DatabaseHost {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const plain = /^([^:[\]]*)(?::(\d+))?$/.exec(entry);
  const found = bracketed ?? plain;
  if (!found || found[1] === '') throw new Error(`Cannot read the host "${entry}" of the database URL`);
  const port = found[2] === undefined ? DEFAULT_PORT : Number(found[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`Bad port in the database URL: "${entry}"`);
  return { host: found[1]!, port };
}

/** The name of a host in messages and metrics labels. */
export function hostLabel(host: DatabaseHost): string {
  return host.host.includes(':') ? `[${host.host}]:${host.port}` : `${host.host}:${host.port}`;
}

/**
 * No server that takes writes answers: the primary is down and no standby has been promoted yet,
 * or the one reached is read-only. The request may be retried in a moment; the gateway answers 503
 * with `Retry-After`.
 */
export class DatabaseUnavailable extends DomainError {
  readonly retryAfterSec = 2;
  constructor(
    message = 'The database is not taking writes at the moment (failing over); try again in a few seconds',
  ) {
    super('DATABASE_UNAVAILABLE', message, 503);
  }
}

/**
 * SQLSTATEs that mean the server went away or cannot take this work now, not that the statement
 * was wrong: class 08 (connection exceptions), 57P01–57P03 (shut down by an administrator or a
 * crash, cannot connect now), 25006 (a read-only transaction: the server is a standby now),
 * 53100 (disk full) and 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '25006', '53100', '53300']);
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** node-postgres's own words for a connection it lost or could not get. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Connection terminated unexpectedly',
];

/**
 * Whether `error` says the database cannot be reached or cannot take writes now, as opposed to a
 * failure of the statement itself. Such a failure leaves nothing half-written: the transaction it
 * interrupted rolls back, and the same request (with its idempotency key) may be sent again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable) return true;
  if (error instanceof DomainError) return false;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true;
    if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((words) => message.startsWith(words)))
    return true;
  // A wrapper that keeps the failure as its cause (a placement batch whose commit failed).
  const cause = error instanceof Error ? error.cause : undefined;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

/** How long a probe waits for one server before trying the next. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Finds the writable host and remembers it until a connection to it fails or finds it read-only.
 * Concurrent connections share one search.
 */
export class PrimaryLocator {
  private current: DatabaseHost | undefined;
  private lastFound: DatabaseHost | undefined;
  private search: Promise<DatabaseHost> | undefined;
  private moves = 0;

  constructor(
    readonly hosts: readonly DatabaseHost[],
    /** How a probe connects (user, database, password, TLS); its host and port are each host's. */
    private readonly probeConfig: pg.ClientConfig,
  ) {}

  /** The host new connections go to, searching for it when none is known. */
  writable(): Promise<DatabaseHost> {
    if (this.current) return Promise.resolve(this.current);
    this.search ??= this.find().finally(() => (this.search = undefined));
    return this.search;
  }

  /** The host last found writable, while nothing has cast doubt on it. */
  known(): DatabaseHost | undefined {
    return this.current;
  }

  /** How many times the writable host was found to be another than the one before. */
  moved(): number {
    return this.moves;
  }

  /** Forgets `host` as the writable one (a connection to it failed, or it answered read-only). */
  suspect(host: DatabaseHost): void {
    if (this.current && sameHost(this.current, host)) this.current = undefined;
  }

  private async find(): Promise<DatabaseHost> {
    for (const host of this.hosts) {
      if (await isWritable(host, this.probeConfig)) {
        if (this.lastFound && !sameHost(this.lastFound, host)) this.moves++;
        this.current = this.lastFound = host;
        return host;
      }
    }
    throw new DatabaseUnavailable(
      `No PostgreSQL server takes writes among ${this.hosts.map(hostLabel).join(', ')}; try again in a few seconds`,
    );
  }
}

function sameHost(a: DatabaseHost, b: DatabaseHost): boolean {
  return a.host === b.host && a.port === b.port;
}

/** Whether `host` answers and is not in recovery; any failure counts as no. */
async function isWritable(host: DatabaseHost, config: pg.ClientConfig): Promise<boolean> {
  const client = new pg.Client({
    ...config,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
  });
  // A connection string's host wins over the config's in node-postgres: the host is set here.
  client.host = host.host;
  client.port = host.port;
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await inRecovery(client).then((recovery) => !recovery);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether the server behind `client` is a standby (in recovery), and so takes no writes. */
export async function inRecovery(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
  return rows[0]?.recovery !== false;
}
