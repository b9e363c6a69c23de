import { sql, type Kysely } from 'kysely';

/**
 * The trades table is the outbox of `trades.settled.v1`: the update that settles a trade also
 * writes its publish position (the settling transaction's id and a number from
 * `trades_settled_seq`), and the outbox relay publishes the settled rows after its cursor (the
 * runtime's `OutboxSource`). Settlement used to insert an outbox row per trade beside that update,
 * and the relay then rewrote each one to mark it published. Trades settled before this migration
 * have no position; their events were written to `outbox` as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table trades add column settled_xact_id xid8, add column settled_seq bigint`.execute(db);
  await sql`create sequence trades_settled_seq`.execute(db);
  await sql`create index trades_settled_position on trades (settled_xact_id, settled_seq) where settled_seq is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index trades_settled_position`.execute(db);
  await sql`drop sequence trades_settled_seq`.execute(db);
  await sql`alter table trades drop column settled_xact_id, drop column settled_seq`.execute(db);
}
