import { sql, type Kysely } from 'kysely';

/**
 * Real market feeds (docs/feeds.md). A pair names its feed's provider and the exchange's symbol,
 * and may name a second provider as reference with the largest disagreement it allows.
 * `market_reference_ticks` keeps what the reference said, written in the same transactions as the
 * pair's own ticks, so settlement compares the two feeds at a trade's entry and expiry from stored
 * data. `market_feed_status` is the feeds' health as price-ingest last saw it, for the console and
 * the admin Feeds view of any process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table market_pairs
      add column provider_symbol text,
      add column reference_provider text,
      add column reference_symbol text,
      add column reference_spread_bps integer,
      add constraint market_pairs_reference_complete check (
        (reference_provider is null and reference_symbol is null and reference_spread_bps is null)
        or (reference_provider is not null and reference_symbol is not null
            and reference_spread_bps between 1 and 10000)
      )`.execute(db);
  await sql`
    create table market_reference_ticks (
      pair text not null,
      at_ms bigint not null,
      price double precision not null check (price > 0),
      provider text not null
    )`.execute(db);
  await sql`create index market_reference_ticks_pair_at_ms on market_reference_ticks (pair, at_ms)`.execute(
    db,
  );
  await sql`
    create table market_feed_status (
      pair text not null,
      role text not null check (role in ('primary', 'reference')),
      provider text not null,
      source_symbol text,
      last_tick_at_ms bigint,
      ticks_per_sec double precision not null default 0,
      reconnects integer not null default 0,
      gaps integer not null default 0,
      malformed integer not null default 0,
      last_error text,
      divergence_bps double precision,
      updated_at_ms bigint not null,
      primary key (pair, role)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table market_feed_status`.execute(db);
  await sql`drop table market_reference_ticks`.execute(db);
  await sql`
    alter table market_pairs
      drop constraint market_pairs_reference_complete,
      drop column reference_spread_bps,
      drop column reference_symbol,
      drop column reference_provider,
      drop column provider_symbol`.execute(db);
}
