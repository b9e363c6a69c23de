import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { CandleRow } from './candles/candles.domain';
import type { Tick } from './feed/price-provider';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Reads and writes of the market tables. Batches travel as arrays through `unnest`, so one
 * statement writes any number of rows with a fixed number of parameters.
 */

export interface FeedPairRow {
  readonly symbol: string;
  readonly referencePrice: number | null;
}

/** The active pairs a provider serves, in display order. */
export async function listFeedPairs(db: Db, provider: string, limit: number): Promise<FeedPairRow[]> {
  const rows = await db
    .selectFrom('market_pairs')
    .select(['symbol', 'reference_price'])
    .where('active', '=', true)
    .where('provider', '=', provider)
    .orderBy('sort_order')
    .orderBy('created_at')
    .orderBy('symbol')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ symbol: row.symbol, referencePrice: row.reference_price }));
}

export async function insertTicksAndCandles(
  trx: Transaction<Database>,
  ticks: readonly Tick[],
  candles: readonly CandleRow[],
): Promise<void> {
  if (ticks.length > 0) {
    await sql`
      insert into market_ticks (pair, ts, price)
      select * from unnest(${ticks.map((t) => t.pair)}::text[], ${ticks.map((t) => t.ts)}::bigint[],
                           ${ticks.map((t) => t.price)}::float8[])`.execute(trx);
  }
  if (candles.length > 0) {
    // Rows arrive sorted by key (see aggregateCandles), so concurrent writers lock in one order.
    await sql`
      insert into market_candles (pair, timeframe_sec, bucket_start, open, high, low, close, volume)
      select * from unnest(${candles.map((c) => c.pair)}::text[], ${candles.map((c) => c.timeframeSec)}::int[],
                           ${candles.map((c) => c.bucketStart)}::bigint[], ${candles.map((c) => c.open)}::float8[],
                           ${candles.map((c) => c.high)}::float8[], ${candles.map((c) => c.low)}::float8[],
                           ${candles.map((c) => c.close)}::float8[], ${candles.map((c) => c.volume)}::int[])
      on conflict (pair, timeframe_sec, bucket_start) do update set
        high = greatest(market_candles.high, excluded.high),
        low = least(market_candles.low, excluded.low),
        close = excluded.close,
        volume = market_candles.volume + excluded.volume`.execute(trx);
  }
}

export async function hasCandleHistory(db: Db, pair: string): Promise<boolean> {
  const row = await db
    .selectFrom('market_candles')
    .select('bucket_start')
    .where('pair', '=', pair)
    .where('timeframe_sec', '=', 60)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Writes a pair's synthetic history in one statement. A plain insert, not an upsert: history is
 * only written for a pair that has none, and if another writer got there first the unique key
 * fails the transaction, the caller logs it, and the next pass finds the history present.
 */
export async function insertBackfill(
  trx: Transaction<Database>,
  candles: readonly CandleRow[],
): Promise<void> {
  if (candles.length === 0) return;
  await sql`
    insert into market_candles (pair, timeframe_sec, bucket_start, open, high, low, close, volume)
    select * from unnest(${candles.map((c) => c.pair)}::text[], ${candles.map((c) => c.timeframeSec)}::int[],
                         ${candles.map((c) => c.bucketStart)}::bigint[], ${candles.map((c) => c.open)}::float8[],
                         ${candles.map((c) => c.high)}::float8[], ${candles.map((c) => c.low)}::float8[],
                         ${candles.map((c) => c.close)}::float8[], ${candles.map((c) => c.volume)}::int[])`.execute(
    trx,
  );
}

/** The last price the pair had: its newest tick, else its newest 1m candle's close. */
export async function latestKnownPrice(db: Db, pair: string): Promise<number | undefined> {
  const tick = await db
    .selectFrom('market_ticks')
    .select('price')
    .where('pair', '=', pair)
    .orderBy('ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (tick) return tick.price;
  const candle = await db
    .selectFrom('market_candles')
    .select('close')
    .where('pair', '=', pair)
    .where('timeframe_sec', '=', 60)
    .orderBy('bucket_start', 'desc')
    .limit(1)
    .executeTakeFirst();
  return candle?.close;
}

/** The newest stored tick of each listed pair (pairs with no tick are left out). */
export async function newestTickPerPair(db: Db, limit: number): Promise<Tick[]> {
  const result = await sql<{ pair: string; price: number; ts: number }>`
    select p.symbol as pair, t.price, t.ts
    from (select symbol from market_pairs order by symbol limit ${limit}) p
    cross join lateral (
      select price, ts from market_ticks where pair = p.symbol order by ts desc limit 1
    ) t`.execute(db);
  return result.rows.map((row) => ({ pair: row.pair, price: row.price, ts: Number(row.ts) }));
}

/**
 * Every pair that has ticks, including pairs since deleted from `market_pairs`, found by skipping
 * through the (pair, ts) index one pair at a time rather than scanning the table.
 */
export async function pairsWithTicks(db: Db, limit: number): Promise<string[]> {
  const result = await sql<{ pair: string }>`
    with recursive pairs as (
      (select pair from market_ticks order by pair limit 1)
      union all
      select (select t.pair from market_ticks t where t.pair > pairs.pair order by t.pair limit 1)
      from pairs where pairs.pair is not null
    )
    select pair from pairs where pair is not null limit ${limit}`.execute(db);
  return result.rows.map((row) => row.pair);
}

/** Deletes up to `chunk` ticks of a pair older than `beforeMs`; returns how many went. */
export async function deleteTicksBefore(
  db: Db,
  pair: string,
  beforeMs: number,
  chunk: number,
): Promise<number> {
  const result = await sql`
    delete from market_ticks where id in (
      select id from market_ticks where pair = ${pair} and ts < ${beforeMs} limit ${chunk}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
