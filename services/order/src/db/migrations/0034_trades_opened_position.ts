import { sql, type Kysely } from 'kysely';

/**
 * The trades table is the outbox of `trades.opened.v1` too: each inserted trade gets its publish
 * position from column defaults (the placing transaction's id and a number from
 * `trades_opened_seq`), and the outbox relay publishes the new rows after its cursor (order's
 * `openedTradesSource`). Placement used to insert an outbox row per batch of trades beside them.
 * The defaults are set after the columns are added, so trades placed before this migration get no
 * position: their events went through `outbox`, and must not be published a second time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table trades add column opened_xact_id xid8, add column opened_seq bigint`.execute(db);
  await sql`create sequence trades_opened_seq`.execute(db);
  await sql`alter table trades
    alter column opened_xact_id set default pg_current_xact_id(),
    alter column opened_seq set default nextval('trades_opened_seq')`.execute(db);
  await sql`create index trades_opened_position on trades (opened_xact_id, opened_seq) where opened_seq is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index trades_opened_position`.execute(db);
  await sql`alter table trades drop column opened_xact_id, drop column opened_seq`.execute(db);
  await sql`drop sequence trades_opened_seq`.execute(db);
}
