import { sql, type Kysely } from 'kysely';

/**
 * Time columns say their unit: a tick's instant is Unix epoch milliseconds (`at_ms`), a candle's
 * start is Unix epoch seconds (`bucket_start_sec`). Renames only; the indexes, primary key and
 * constraints on these columns follow them, and the one index named after a column is renamed with
 * it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table market_ticks rename column ts to at_ms`.execute(db);
  await sql`alter index market_ticks_pair_ts rename to market_ticks_pair_at_ms`.execute(db);
  await sql`alter table market_candles rename column bucket_start to bucket_start_sec`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table market_candles rename column bucket_start_sec to bucket_start`.execute(db);
  await sql`alter index market_ticks_pair_at_ms rename to market_ticks_pair_ts`.execute(db);
  await sql`alter table market_ticks rename column at_ms to ts`.execute(db);
}
