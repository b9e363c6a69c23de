import { sql, type Kysely } from 'kysely';

/**
 * The tick log becomes a hash chain per pair (docs/receipts.md): each tick written from now on
 * carries its number in the pair's chain (`seq`, 1, 2, 3 …), the hash of the pair's previous tick
 * and its own hash over its content and that previous hash. Ticks stored before this migration
 * keep null columns and belong to no chain. `pinned` marks ticks a receipt names, which retention
 * never deletes.
 *
 * Checkpoints sign a chain's head at intervals (Ed25519): the range of ticks since the previous
 * checkpoint, their count and time span, the hash the range starts from and the head's hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table market_ticks
    add column seq bigint,
    add column prev_hash bytea,
    add column hash bytea,
    add column pinned boolean not null default false,
    add constraint market_ticks_chain_complete check (
      (seq is null and prev_hash is null and hash is null)
      or (seq >= 1 and octet_length(prev_hash) = 32 and octet_length(hash) = 32))`.execute(db);
  // One tick per place in a pair's chain: a second writer's fork fails instead of forking.
  await sql`create unique index market_ticks_pair_seq on market_ticks (pair, seq) where seq is not null`.execute(
    db,
  );
  await sql`
    create table tick_checkpoints (
      pair text not null,
      from_seq bigint not null,
      to_seq bigint not null,
      from_ms bigint not null,
      to_ms bigint not null,
      start_hash bytea not null,
      head_hash bytea not null,
      signed_at_ms bigint not null,
      key_id text not null,
      signature bytea not null,
      primary key (pair, to_seq),
      constraint tick_checkpoints_range check (from_seq >= 1 and to_seq >= from_seq and to_ms >= from_ms),
      constraint tick_checkpoints_hashes check (octet_length(start_hash) = 32 and octet_length(head_hash) = 32),
      constraint tick_checkpoints_signature check (octet_length(signature) = 64)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table tick_checkpoints`.execute(db);
  await sql`drop index market_ticks_pair_seq`.execute(db);
  await sql`alter table market_ticks drop constraint market_ticks_chain_complete,
    drop column seq, drop column prev_hash, drop column hash, drop column pinned`.execute(db);
}
