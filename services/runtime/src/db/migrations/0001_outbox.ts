import { sql, type Kysely } from 'kysely';

/**
 * The transactional outbox: events are inserted in the same transaction as the rows they describe
 * and relayed to the bus afterwards, so a committed change is never left unpublished.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table outbox (
      id bigserial primary key,
      topic text not null,
      key text not null,
      event jsonb not null,
      created_at timestamptz not null default now(),
      published_at timestamptz
    )`.execute(db);
  await sql`create index outbox_unpublished on outbox (id) where published_at is null`.execute(db);
  await sql`create index outbox_published_at on outbox (published_at) where published_at is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table outbox`.execute(db);
}
