import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb, withDefaultUser } from '../db/pool';
import { migrateToLatest, type MigrationSet } from '../db/migrator';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded';

/**
 * Vitest global setup: one PostgreSQL server for the whole run (`DATABASE_URL` when set, else an
 * embedded one in a temporary directory), one migrated template database, and each test file
 * clones its own database from the template (see `createTestDatabase`). The runtime cannot import
 * the packages whose migrations the template needs (they depend on it), so the vitest config names
 * a global setup that passes them: `services/platform/src/testing/global-setup.ts`.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    pgServerUrl: string;
    pgTemplateDatabase: string;
  }
}

export function testPostgresSetup(
  migrations: readonly MigrationSet[],
): (project: TestProject) => Promise<() => Promise<void>> {
  return (project) => setup(project, migrations);
}

async function setup(
  project: TestProject,
  migrations: readonly MigrationSet[],
): Promise<() => Promise<void>> {
  let embedded: EmbeddedPostgres | undefined;
  let tempDir: string | undefined;
  let serverUrl: string;
  const external = process.env.DATABASE_URL;
  if (external) {
    const url = new URL(external);
    url.pathname = '';
    serverUrl = url.toString().replace(/\/$/, '');
  } else {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'updown-test-pg-'));
    embedded = await startEmbeddedPostgres({
      dataDir: tempDir,
      port: 0,
      database: 'postgres',
      temporary: true,
      // A throwaway cluster: durability buys nothing here and costs seconds.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
    });
    serverUrl = embedded.serverUrl;
  }
  const template = `updown_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({
    connectionString: withDefaultUser(
      `${serverUrl}/${external ? new URL(external).pathname.slice(1) || 'postgres' : 'postgres'}`,
    ),
  });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const handle = createDb(`${serverUrl}/${template}`, { max: 2 });
  await migrateToLatest(handle.db, migrations);
  await handle.close();
  project.provide('pgServerUrl', serverUrl);
  project.provide('pgTemplateDatabase', template);

  return async () => {
    const leftovers = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = $2`,
      [`${template}_%`, template],
    );
    for (const { datname } of leftovers.rows) {
      await admin.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
    }
    await admin.end();
    await embedded?.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
}
