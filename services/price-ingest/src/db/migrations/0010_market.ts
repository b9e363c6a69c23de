import { sql, type Kysely } from 'kysely';

/**
 * Market data, owned by price-ingest: the tradable pairs, every tick the feed produced and the
 * candles built from them.
 *
 * - `market_ticks.id` is what settlement will record as "the tick this trade settled on", so ticks
 *   are rows with their own identity rather than a time series keyed only by `(pair, ts)`.
 * - Candles use the chart's own units: `bucket_start` in Unix seconds, aligned to the timeframe.
 * - Pairs carry no foreign key from ticks or candles: deleting a pair must not erase the prices
 *   that trades were settled on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table market_pairs (
      symbol text primary key,
      display_name text not null,
      active boolean not null default true,
      payout_pct numeric(6, 2) not null default 80,
      provider text not null default 'OTC',
      reference_price double precision,
      sort_order integer not null default 1000,
      created_at timestamptz not null default now(),
      constraint market_pairs_symbol_format check (symbol ~ '^[A-Z0-9][A-Z0-9._-]{1,31}$'),
      constraint market_pairs_display_name_length check (length(display_name) between 1 and 64),
      constraint market_pairs_payout_range check (payout_pct >= 0 and payout_pct <= 1000),
      constraint market_pairs_reference_positive check (reference_price is null or reference_price > 0)
    )`.execute(db);

  await sql`
    create table market_ticks (
      id bigserial primary key,
      pair text not null,
      ts bigint not null,
      price double precision not null,
      constraint market_ticks_price_positive check (price > 0)
    )`.execute(db);
  await sql`create index market_ticks_pair_ts on market_ticks (pair, ts)`.execute(db);

  await sql`
    create table market_candles (
      pair text not null,
      timeframe_sec integer not null,
      bucket_start bigint not null,
      open double precision not null,
      high double precision not null,
      low double precision not null,
      close double precision not null,
      primary key (pair, timeframe_sec, bucket_start),
      constraint market_candles_timeframe check (timeframe_sec in (60, 300, 900, 1800, 3600)),
      constraint market_candles_aligned check (bucket_start % timeframe_sec = 0),
      constraint market_candles_range check (low > 0 and low <= least(open, close) and high >= greatest(open, close))
    )`.execute(db);

  // The sample pairs of the spec, at prices close to the real markets' when this was written.
  // BTCUSDT sorts first because it is the trading page's default pair.
  await sql`
    insert into market_pairs (symbol, display_name, reference_price, sort_order) values
      ('BTCUSDT', 'BTC/USDT', 95000.00, 10),
      ('EURUSD', 'EUR/USD', 1.16000, 20),
      ('GBPUSD', 'GBP/USD', 1.31500, 30),
      ('USDJPY', 'USD/JPY', 155.000, 40),
      ('XAUUSD', 'XAU/USD', 4050.00, 50),
      ('ETHUSD', 'ETH/USD', 3100.00, 60)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table market_candles`.execute(db);
  await sql`drop table market_ticks`.execute(db);
  await sql`drop table market_pairs`.execute(db);
}
