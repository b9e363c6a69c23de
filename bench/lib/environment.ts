import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  createDb,
  migrateToLatest,
  startEmbeddedPostgres,
  withDefaultUser,
  type DbHandle,
  type EmbeddedPostgres,
} from '@updown/runtime';
import { allMigrations } from '@updown/platform/migrations';

/**
 * The PostgreSQL server every benchmark and its reference share: `BENCH_DATABASE_URL` when set,
 * else an embedded server started for the run in a temporary directory with PostgreSQL's durable
 * defaults (fsync and synchronous_commit on), because benchmarks of money movement on a server
 * that may lose commits would flatter us. Each benchmark gets a fresh migrated database.
 */

export interface BenchDatabase extends DbHandle {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

export interface BenchEnvironment {
  /** `postgres://user:password@host:port`, no database. */
  readonly serverUrl: string;
  /**
   * The server's durability settings, version and `jit` default, and `engine_jit`: the `jit` the
   * engine's own connections run with (always off; the environment refuses to open otherwise).
   */
  readonly server: Readonly<Record<string, string>>;
  /** A fresh database migrated to the latest schema. */
  createDatabase(options?: { max?: number }): Promise<BenchDatabase>;
  /** An empty database without Updown's schema (for pgbench and bare references). */
  createEmptyDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }>;
  /** pgbench from the PostgreSQL client packages, or null when it is not installed. */
  readonly pgbench: string | null;
  close(): Promise<void>;
}

const PGBENCH_PATHS = [
  '/usr/bin/pgbench',
  ...['17', '16', '15', '14'].map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`),
];

function findPgbench(): string | null {
  for (const candidate of PGBENCH_PATHS) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v pgbench'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

async function adminQuery<R extends pg.QueryResultRow>(
  serverUrl: string,
  text: string,
): Promise<pg.QueryResult<R>> {
  const client = new pg.Client({ connectionString: withDefaultUser(`${serverUrl}/postgres`) });
  await client.connect();
  try {
    return await client.query<R>(text);
  } finally {
    await client.end();
  }
}

export async function openBenchEnvironment(log: (message: string) => void): Promise<BenchEnvironment> {
  let embedded: EmbeddedPostgres | undefined;
  let tempDir: string | undefined;
  let serverUrl: string;
  const external = process.env.BENCH_DATABASE_URL;
  if (external) {
    const url = new URL(external);
    url.pathname = '';
    serverUrl = url.toString().replace(/\/$/, '');
    log(`PostgreSQL: ${url.host} (BENCH_DATABASE_URL)`);
  } else {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'updown-bench-pg-'));
    embedded = await startEmbeddedPostgres({
      dataDir: tempDir,
      port: 0,
      database: 'postgres',
      temporary: true,
      settings: { max_connections: '400', shared_buffers: '256MB' },
    });
    serverUrl = embedded.serverUrl;
    log(`PostgreSQL: embedded on port ${embedded.port} (durable defaults)`);
  }
  const settings = await adminQuery<{ name: string; setting: string }>(
    serverUrl,
    `select name, setting from pg_settings where name in ('server_version', 'fsync', 'synchronous_commit', 'shared_buffers', 'max_connections', 'wal_level', 'jit')`,
  );
  const template = `updown_bench_tpl_${process.pid}`;
  await adminQuery(serverUrl, `drop database if exists ${template}`);
  await adminQuery(serverUrl, `create database ${template}`);
  const handle = createDb(`${serverUrl}/${template}`, { max: 2 });
  let engineJit: string;
  try {
    await migrateToLatest(handle.db, allMigrations);
    engineJit = (await handle.pool.query<{ jit: string }>('show jit')).rows[0]!.jit;
  } finally {
    await handle.close();
  }
  // `jit` is the server's default (a plain connection's); `engine_jit` what the engine's own
  // connections run with, whatever that default is.
  const server = {
    ...Object.fromEntries(settings.rows.map((row) => [row.name, row.setting])),
    engine_jit: engineJit,
  };
  // JIT-compiling the placement's statements on every execution cost a stock server (`jit = on`)
  // ten times its placement rate; numbers taken that way would measure the compiler.
  if (engineJit !== 'off') {
    await adminQuery(serverUrl, `drop database if exists ${template}`);
    await embedded?.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
    throw new Error(`the engine's connections run with jit = ${engineJit}; createDb must turn it off`);
  }
  const created: string[] = [];
  let counter = 0;
  const newName = () => `updown_bench_${process.pid}_${++counter}`;

  return {
    serverUrl,
    server,
    pgbench: findPgbench(),
    async createDatabase(options = {}) {
      const name = newName();
      await adminQuery(serverUrl, `create database ${name} template ${template}`);
      created.push(name);
      const url = `${serverUrl}/${name}`;
      const db = createDb(url, { max: options.max ?? 20, applicationName: 'updown-bench' });
      return {
        ...db,
        url,
        name,
        async drop() {
          await db.close();
          await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
        },
      };
    },
    async createEmptyDatabase() {
      const name = newName();
      await adminQuery(serverUrl, `create database ${name}`);
      created.push(name);
      return {
        url: `${serverUrl}/${name}`,
        name,
        drop: async () => void (await adminQuery(serverUrl, `drop database if exists ${name} with (force)`)),
      };
    },
    async close() {
      for (const name of [...created, template]) {
        await adminQuery(serverUrl, `drop database if exists ${name} with (force)`).catch(() => undefined);
      }
      await embedded?.stop();
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    },
  };
}
