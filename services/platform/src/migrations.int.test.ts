import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_OWNERS, migrateToLatest, migrationsApplied } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { allMigrations } from './migrations';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
/** Where the architecture lint reads each table's owner (scripts/architecture/table-ownership.js). */
const TABLE_OWNERS_FILE = 'scripts/architecture/table-owners.json';

/** The parts split off migrations that used to create tables of several owners. */
const SPLIT_OFF = ['0030a_platform_settings', '0030b_bonuses', '0040a_admin_audit'];

describe('every package migration', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  const names = allMigrations.flatMap((set) => Object.keys(set.migrations)).sort();
  const history = async () =>
    (
      await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db)
    ).rows.map((r) => r.name);
  const catalog = async () =>
    (
      await sql<{ item: string }>`
        select table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(column_default, '') as item
          from information_schema.columns where table_schema = 'public'
        union all select indexdef from pg_indexes where schemaname = 'public'
        union all select conname || ' ' || pg_get_constraintdef(oid) from pg_constraint
          where connamespace = 'public'::regnamespace
        order by 1`.execute(database.db)
    ).rows.map((r) => r.item);

  it('names each owner once', () => {
    expect(allMigrations.map((set) => set.owner).sort()).toEqual([...MIGRATION_OWNERS].sort());
  });

  it('are all applied to the template every test database is cloned from, and only once', async () => {
    expect(await migrationsApplied(database.db, allMigrations)).toBe(true);
    expect(await history()).toEqual(names);
    expect(await migrateToLatest(database.db, allMigrations)).toEqual([]);
  });

  it('upgrade a database migrated before the split by applying only the split-off parts, which change nothing', async () => {
    const before = await catalog();
    const settings = await sql`select * from platform_settings`.execute(database.db);
    await sql`delete from kysely_migration where name in (${sql.join(SPLIT_OFF)})`.execute(database.db);
    expect(await migrationsApplied(database.db, allMigrations)).toBe(false);
    expect((await migrateToLatest(database.db, allMigrations)).sort()).toEqual([...SPLIT_OFF].sort());
    expect(await catalog()).toEqual(before);
    expect((await sql`select * from platform_settings`.execute(database.db)).rows).toEqual(settings.rows);
    expect(await history()).toEqual(names);
  });
});

describe('the floors of the house', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await sql`drop schema public cascade; create schema public`.execute(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('migrate one floor at a time from the bottom, each needing only the floors below it, and create the tables table-owners.json gives each', async () => {
    const tables = async () =>
      (
        await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_name not like 'kysely_migration%'`.execute(database.db)
      ).rows.map((row) => row.name);
    const floors: { owner: string; tables: string[] }[] = [];
    for (const [floor, owner] of MIGRATION_OWNERS.entries()) {
      const below = allMigrations.filter((set) => MIGRATION_OWNERS.indexOf(set.owner) <= floor);
      const own = Object.keys(allMigrations.find((set) => set.owner === owner)!.migrations);
      const before = new Set(await tables());
      // A foreign key up to a floor not built yet would fail here, naming the table it wants.
      expect((await migrateToLatest(database.db, below)).sort(), owner).toEqual(own.sort());
      floors.push({ owner, tables: (await tables()).filter((table) => !before.has(table)).sort() });
    }
    // The lint rule and the architecture test read each table's owner from this file; it must say
    // what the migrations do. UPDATE_TABLE_OWNERS=1 rewrites it after a migration adds a table.
    const file = path.join(REPO_ROOT, TABLE_OWNERS_FILE);
    if (process.env.UPDATE_TABLE_OWNERS === '1') writeFileSync(file, `${JSON.stringify(floors, null, 2)}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(floors);
  });
});
