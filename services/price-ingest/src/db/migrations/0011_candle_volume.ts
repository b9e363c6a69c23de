import { sql, type Kysely } from 'kysely';

/**
 * Tick volume per candle. An OTC feed has no traded volume, so the Volume indicator shows how
 * many prices were observed in each candle, the way retail forex platforms do. Candles written
 * before this column existed count 0.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table market_candles
      add column volume integer not null default 0,
      add constraint market_candles_volume check (volume >= 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table market_candles drop column volume`.execute(db);
}
