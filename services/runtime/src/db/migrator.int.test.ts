import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { migrateToLatest, migrationsApplied } from './migrator';
import { migrations } from './migrations/index';

describe('migrations', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('are all applied to the template every test database is cloned from', async () => {
    expect(await migrationsApplied(database.db)).toBe(true);
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      database.db,
    );
    expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
  });

  it('are idempotent: running them again applies nothing', async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('parse bigint columns to safe numbers', async () => {
    const row = await sql<{ n: number }>`select 9007199254740991::bigint as n`.execute(database.db);
    expect(row.rows[0]?.n).toBe(Number.MAX_SAFE_INTEGER);
    await expect(sql`select 9007199254740993::bigint as n`.execute(database.db)).rejects.toThrow(
      /safe integer/,
    );
  });
});
