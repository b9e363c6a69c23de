import { sql, type Kysely } from 'kysely';

/**
 * How far the outbox relay has published each table that is its own outbox (an `OutboxSource`):
 * the position of the last row published, as the transaction id that wrote it and the row's
 * sequence number within the source.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table outbox_cursors (
      source text primary key,
      xact_id xid8 not null,
      seq bigint not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table outbox_cursors`.execute(db);
}
