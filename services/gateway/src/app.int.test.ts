import { sql } from 'kysely';
import { accountsMigrations } from '@updown/accounts';
import { createMetricsRegistry, runtimeMigrations } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { memoryLogger } from './testing/test-app';

/** `/readyz` with the default readiness against real PostgreSQL, waiting for the sets it is given. */
const SETS = [runtimeMigrations, accountsMigrations];
describe('gateway readiness against PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database.drop();
  });

  function appFor(db: TestDatabase['db']) {
    return buildApp({
      config: { CONSOLE_DIR: '/nonexistent', CORS_ORIGINS: [], BODY_LIMIT_BYTES: 1024 * 1024 },
      logger: memoryLogger('silent').logger,
      registry: createMetricsRegistry(),
      db,
      readiness: { migrations: SETS },
    });
  }

  it('is ready on a migrated database', async () => {
    const app = appFor(database.db);
    try {
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', checks: { database: true, migrations: true } });
    } finally {
      await app.close();
    }
  });

  it('is not ready while a migration is pending', async () => {
    const app = appFor(database.db);
    const name = Object.keys(accountsMigrations.migrations).sort().at(-1)!;
    await sql`delete from kysely_migration where name = ${name}`.execute(database.db);
    try {
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        detail: 'Not ready: migrations',
        code: 'NOT_READY',
        checks: { database: true, migrations: 'pending' },
      });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
        database.db,
      );
      await app.close();
    }
  });
});
