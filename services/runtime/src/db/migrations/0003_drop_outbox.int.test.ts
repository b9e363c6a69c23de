import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../schema';
import { createTestDatabase, type TestDatabase } from '../../testing';
import { down, up } from './0003_drop_outbox';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 2 });
});
afterAll(async () => {
  await database.drop();
});

/** Migrations are written against no schema; the test's connection and transactions have one. */
const untyped = (db: Kysely<Database>): Kysely<unknown> => db as Kysely<unknown>;

const outboxExists = async () =>
  (await sql<{ found: boolean }>`select to_regclass('outbox') is not null as found`.execute(database.db))
    .rows[0]!.found;

describe('migration 0003_drop_outbox', () => {
  it('refuses to drop an outbox holding unpublished events, saying what to do, and drops it once none is left', async () => {
    // The migrated template has no outbox any more: `down` puts it back as 0001 created it.
    expect(await outboxExists()).toBe(false);
    await down(untyped(database.db));
    await sql`
      insert into outbox (topic, key, event, published_at)
      values ('trades.opened.v1', 'EURUSD', '{}', now()), ('trades.opened.v1', 'EURUSD', '{}', null)`.execute(
      database.db,
    );

    // As the migrator runs it: inside a transaction, which the refusal rolls back.
    const migrate = () => database.db.transaction().execute((trx) => up(untyped(trx)));
    await expect(migrate()).rejects.toThrow(
      /still holds 1 unpublished event.*previous release.*updown_outbox_backlog is 0, then migrate again/,
    );
    expect(await outboxExists()).toBe(true);

    await sql`update outbox set published_at = now() where published_at is null`.execute(database.db);
    await migrate();
    expect(await outboxExists()).toBe(false);
  });
});
