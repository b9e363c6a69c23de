import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import { byteaArray, numberArray, preparedStatement, textArray, type Database } from '@updown/runtime';
import type { CandleRow } from './candles/candles.domain';
import type { ChainedTick } from './chain/tick-chain';
import type { Tick } from './feed/price-provider';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Reads and writes of the market tables. Batches travel as arrays through `unnest`, so one
 * statement writes any number of rows with a fixed number of parameters. The feed's own writes,
 * five a second even with no one trading, have their texts fixed here and their arrays sent as
 * literals (`@updown/runtime`, db/array-literals.ts): no query is built per batch, and each connection plans them once.
 */

export interface FeedPairRow {
  readonly symbol: string;
  readonly referencePrice: number | null;
  readonly provider: string;
  readonly providerSymbol: string | null;
  readonly referenceProvider: string | null;
  readonly referenceSymbol: string | null;
  readonly referenceSpreadBps: number | null;
}

/** The active pairs with their feeds, in display order. */
export async function listFeedPairs(db: Db, limit: number): Promise<FeedPairRow[]> {
  const rows = await db
    .selectFrom('market_pairs')
    .select([
      'symbol',
      'reference_price',
      'provider',
      'provider_symbol',
      'reference_provider',
      'reference_symbol',
      'reference_spread_bps',
    ])
    .where('active', '=', true)
    .orderBy('sort_order')
    .orderBy('created_at')
    .orderBy('symbol')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    symbol: row.symbol,
    referencePrice: row.reference_price,
    provider: row.provider,
    providerSymbol: row.provider_symbol,
    referenceProvider: row.reference_provider,
    referenceSymbol: row.reference_symbol,
    referenceSpreadBps: row.reference_spread_bps,
  }));
}

export interface ReferenceTick {
  readonly pair: string;
  readonly price: number;
  readonly atMs: number;
  readonly provider: string;
}

/** What the pairs' reference feeds said, in the caller's transaction (the batch of the pairs' own ticks). */
export async function insertReferenceTicks(
  trx: Transaction<Database>,
  ticks: readonly ReferenceTick[],
): Promise<void> {
  if (ticks.length === 0) return;
  await insertReferenceTicksStatement(
    trx,
    textArray(ticks, (t) => t.pair),
    numberArray(ticks, (t) => t.atMs),
    numberArray(ticks, (t) => t.price),
    textArray(ticks, (t) => t.provider),
  );
}

const insertReferenceTicksStatement = preparedStatement<never, [string, string, string, string]>(
  `insert into market_reference_ticks (pair, at_ms, price, provider)
   select * from unnest($1::text[], $2::bigint[], $3::float8[], $4::text[])`,
);

/**
 * Replaces a pair's candles over the buckets an exchange's history covers: a pair switched to an
 * exchange shows the exchange's past, not the synthetic feed's, where the two overlap.
 */
export async function replaceCandles(
  trx: Transaction<Database>,
  candles: readonly CandleRow[],
): Promise<void> {
  if (candles.length === 0) return;
  await trx.executeQuery(
    CompiledQuery.raw(
      `${INSERT_CANDLES}
       on conflict (pair, timeframe_sec, bucket_start_sec) do update set
         open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
         volume = excluded.volume`,
      candleArrays(candles),
    ),
  );
}

/**
 * Writes a batch of chained ticks and the candles they move, in the caller's transaction, which commits
 * without waiting for its WAL to reach disk (`synchronous_commit = off` for this transaction only).
 *
 * The feed writes five batches a second. Waiting for each one's flush put five more disk flushes a
 * second in the queue every placement's commit waits in, for data nothing durable depends on yet.
 * Nothing is lost that matters: WAL is flushed in order, so any later durable commit (a placement
 * at a published price, a settlement on a stored tick) flushes these rows with it; and the WAL
 * writer flushes them within a fraction of a second anyway. A crash of PostgreSQL in that fraction
 * loses only ticks no trade used: a gap in the chart, as when the database was down.
 */
export async function insertTicksAndCandles(
  trx: Transaction<Database>,
  ticks: readonly ChainedTick[],
  candles: readonly CandleRow[],
): Promise<void> {
  await trx.executeQuery(SYNCHRONOUS_COMMIT_OFF);
  if (ticks.length > 0) {
    await insertTicksStatement(
      trx,
      textArray(ticks, (t) => t.pair),
      numberArray(ticks, (t) => t.atMs),
      numberArray(ticks, (t) => t.price),
      numberArray(ticks, (t) => t.seq),
      byteaArray(ticks, (t) => t.prevHash),
      byteaArray(ticks, (t) => t.hash),
    );
  }
  // Rows arrive sorted by key (see aggregateCandles), so concurrent writers lock in one order.
  if (candles.length > 0) await mergeCandlesStatement(trx, ...candleArrays(candles));
}

const SYNCHRONOUS_COMMIT_OFF = CompiledQuery.raw('set local synchronous_commit = off');

const insertTicksStatement = preparedStatement<never, [string, string, string, string, string, string]>(
  `insert into market_ticks (pair, at_ms, price, seq, prev_hash, hash)
   select * from unnest($1::text[], $2::bigint[], $3::float8[], $4::bigint[], $5::bytea[], $6::bytea[])`,
);

type CandleArrays = [string, string, string, string, string, string, string, string];

/** The candles' columns as array literals, in the order of `INSERT_CANDLES`'s parameters. */
function candleArrays(candles: readonly CandleRow[]): CandleArrays {
  return [
    textArray(candles, (c) => c.pair),
    numberArray(candles, (c) => c.timeframeSec),
    numberArray(candles, (c) => c.bucketStartSec),
    numberArray(candles, (c) => c.open),
    numberArray(candles, (c) => c.high),
    numberArray(candles, (c) => c.low),
    numberArray(candles, (c) => c.close),
    numberArray(candles, (c) => c.volume),
  ];
}

/** `insert into market_candles … select * from unnest(…)` of `candleArrays`, for a caller to add its conflict rule to. */
const INSERT_CANDLES = `insert into market_candles (pair, timeframe_sec, bucket_start_sec, open, high, low, close, volume)
   select * from unnest($1::text[], $2::int[], $3::bigint[], $4::float8[], $5::float8[], $6::float8[],
                        $7::float8[], $8::int[])`;

const mergeCandlesStatement = preparedStatement<never, CandleArrays>(
  `${INSERT_CANDLES}
   on conflict (pair, timeframe_sec, bucket_start_sec) do update set
     high = greatest(market_candles.high, excluded.high),
     low = least(market_candles.low, excluded.low),
     close = excluded.close,
     volume = market_candles.volume + excluded.volume`,
);

export async function hasCandleHistory(db: Db, pair: string): Promise<boolean> {
  const row = await db
    .selectFrom('market_candles')
    .select('bucket_start_sec')
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
  await trx.executeQuery(CompiledQuery.raw(INSERT_CANDLES, candleArrays(candles)));
}

/** The last price the pair had: its newest tick, else its newest 1m candle's close. */
export async function latestKnownPrice(db: Db, pair: string): Promise<number | undefined> {
  const tick = await db
    .selectFrom('market_ticks')
    .select('price')
    .where('pair', '=', pair)
    .orderBy('at_ms', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (tick) return tick.price;
  const candle = await db
    .selectFrom('market_candles')
    .select('close')
    .where('pair', '=', pair)
    .where('timeframe_sec', '=', 60)
    .orderBy('bucket_start_sec', 'desc')
    .limit(1)
    .executeTakeFirst();
  return candle?.close;
}

/** The newest stored tick of each listed pair (pairs with no tick are left out). */
export async function newestTickPerPair(db: Db, limit: number): Promise<Tick[]> {
  const result = await sql<{ pair: string; price: number; at_ms: number }>`
    select p.symbol as pair, t.price, t.at_ms
    from (select symbol from market_pairs order by symbol limit ${limit}) p
    cross join lateral (
      select price, at_ms from market_ticks where pair = p.symbol order by at_ms desc limit 1
    ) t`.execute(db);
  return result.rows.map((row) => ({ pair: row.pair, price: row.price, atMs: Number(row.at_ms) }));
}

/**
 * Every pair that has ticks, including pairs since deleted from `market_pairs`, found by skipping
 * through the (pair, at_ms) index one pair at a time rather than scanning the table.
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

/**
 * Deletes up to `chunk` ticks of a pair older than `beforeMs`; returns how many went. A chained tick
 * goes only if a signed checkpoint that ended before `beforeMs` covers it, so the chain left behind
 * starts right after a checkpoint's head (its first `prev_hash` is that signed hash) and stays
 * verifiable; a tick a receipt names (`pinned`) is never deleted.
 */
/**
 * Deletes up to `chunk` of a pair's reference ticks older than `beforeMs`, through the (pair, at_ms)
 * index. A receipt carries the reference prices it used, so nothing needs to keep them longer.
 */
export async function deleteReferenceTicksBefore(
  db: Db,
  pair: string,
  beforeMs: number,
  chunk: number,
): Promise<number> {
  const result = await sql`
    delete from market_reference_ticks where ctid in (
      select ctid from market_reference_ticks where pair = ${pair} and at_ms < ${beforeMs} limit ${chunk}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export async function deleteTicksBefore(
  db: Db,
  pair: string,
  beforeMs: number,
  chunk: number,
): Promise<number> {
  const result = await sql`
    delete from market_ticks where id in (
      select id from market_ticks
      where pair = ${pair} and at_ms < ${beforeMs} and not pinned
        and (seq is null or seq <= (
          select max(to_seq) from tick_checkpoints where pair = ${pair} and to_ms < ${beforeMs}))
      limit ${chunk}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
