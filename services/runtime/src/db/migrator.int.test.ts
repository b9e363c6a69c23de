import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import {
  MIGRATION_OWNERS,
  MigrationFailed,
  migrateToLatest,
  migrationsApplied,
  runtimeMigrations,
  type MigrationOwner,
  type MigrationSet,
} from './migrator';
import { createDb, withDefaultUser, type DbHandle } from './pool';

describe('the test template', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it("has the runtime's migrations applied", async () => {
    expect(await migrationsApplied(database.db, [runtimeMigrations])).toBe(true);
  });

  it('parses bigint columns to safe numbers', async () => {
    const row = await sql<{ n: number }>`select 9007199254740991::bigint as n`.execute(database.db);
    expect(row.rows[0]?.n).toBe(Number.MAX_SAFE_INTEGER);
    await expect(sql`select 9007199254740993::bigint as n`.execute(database.db)).rejects.toThrow(
      /safe integer/,
    );
  });
});

/** Each test gets an empty database (not a clone of the migrated template). */
describe('migrateToLatest with package sets', () => {
  const serverUrl = inject('pgServerUrl');
  const template = inject('pgTemplateDatabase');
  let name: string;
  let handle: DbHandle;

  async function admin(text: string): Promise<void> {
    const client = new pg.Client({ connectionString: withDefaultUser(`${serverUrl}/postgres`) });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }

  afterEach(async () => {
    await handle.close();
    await admin(`drop database if exists ${name} with (force)`);
  });

  async function emptyDatabase(max = 1): Promise<Kysely<unknown>> {
    name = `${template}_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    handle = createDb(`${serverUrl}/${name}`, { max });
    return handle.db as unknown as Kysely<unknown>;
  }

  /** A migration that records its name, so the test sees the order they ran in. */
  const logged = (label: string): Migration => ({
    async up(db) {
      await sql`create table if not exists run_log (n serial, label text)`.execute(db);
      await sql`insert into run_log (label) values (${label})`.execute(db);
    },
  });
  const set = (owner: MigrationOwner, ...names: string[]): MigrationSet => ({
    owner,
    migrations: Object.fromEntries(names.map((n) => [n, logged(n)])),
  });
  /** Every owner, the ones not given with no migrations. */
  const every = (...given: MigrationSet[]): MigrationSet[] =>
    MIGRATION_OWNERS.map((owner) => given.find((s) => s.owner === owner) ?? { owner, migrations: {} });
  const runLog = async (db: Kysely<unknown>) =>
    (await sql<{ label: string }>`select label from run_log order by n`.execute(db)).rows.map((r) => r.label);

  it('runs the sets in package order, each by name, on one connection, and only once', async () => {
    const db = await emptyDatabase(1);
    const sets = every(
      set('order', '0030_o'),
      set('wallet', '0002_w', '0030a_w'),
      set('accounts', '0020_g'),
      set('runtime', '0001_r'),
    );
    const order = ['0001_r', '0020_g', '0002_w', '0030a_w', '0030_o'];
    expect(await migrateToLatest(db, sets)).toEqual(order);
    expect(await runLog(db)).toEqual(order);
    expect(await migrationsApplied(db, sets)).toBe(true);
    expect(await migrateToLatest(db, sets)).toEqual([]);
    expect(await runLog(db)).toEqual(order);
  });

  it('applies a package migration named before migrations already applied (a split-off part)', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db, every(set('wallet', '0002_w', '0040_w'), set('order', '0030_o')));
    const later = every(set('wallet', '0002_w', '0030a_w', '0040_w'), set('order', '0030_o'));
    expect(await migrationsApplied(db, later)).toBe(false);
    expect(await migrateToLatest(db, later)).toEqual(['0030a_w']);
    expect(await migrationsApplied(db, later)).toBe(true);
  });

  it('refuses a history naming a migration no package has, unless only some packages are given', async () => {
    const db = await emptyDatabase();
    await migrateToLatest(db, every(set('runtime', '0001_r'), set('accounts', '0020_g')));
    await expect(migrateToLatest(db, every(set('runtime', '0001_r')))).rejects.toThrow(/0020_g is missing/);
    expect(await migrateToLatest(db, [set('runtime', '0001_r'), set('wallet', '0002_w')])).toEqual([
      '0002_w',
    ]);
  });

  it('reports the migration that failed, and keeps what earlier packages applied', async () => {
    const db = await emptyDatabase();
    const failing: MigrationSet = {
      owner: 'wallet',
      migrations: {
        '0002_w': {
          async up(trx) {
            await sql`select * from no_such_table`.execute(trx);
          },
        },
      },
    };
    const error = await migrateToLatest(db, every(set('runtime', '0001_r'), failing)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MigrationFailed);
    expect((error as MigrationFailed).migrationName).toBe('0002_w');
    expect((error as MigrationFailed).message).toMatch(/no_such_table/);
    expect(await runLog(db)).toEqual(['0001_r']);
  });

  it('refuses a name two packages share, and an owner given twice', async () => {
    const db = await emptyDatabase();
    await expect(migrateToLatest(db, [set('runtime', '0001_x'), set('wallet', '0001_x')])).rejects.toThrow(
      /0001_x belongs to both runtime and wallet/,
    );
    await expect(migrateToLatest(db, [set('wallet', 'a'), set('wallet', 'b')])).rejects.toThrow(
      /given twice/,
    );
  });
});
