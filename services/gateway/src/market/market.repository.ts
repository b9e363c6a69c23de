import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import type { Candle, MarketPair } from '@updown/schemas/api';

/** Reads of the market tables that price-ingest owns and writes. */

export async function listPairs(db: Kysely<Database>, limit: number): Promise<MarketPair[]> {
  return db
    .selectFrom('market_pairs')
    .select(['symbol', 'display_name', 'active', 'payout_pct', 'provider'])
    .orderBy('sort_order')
    .orderBy('created_at')
    .orderBy('symbol')
    .limit(limit)
    .execute();
}

export async function listPairSymbols(db: Kysely<Database>, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('market_pairs').select('symbol').orderBy('symbol').limit(limit).execute();
  return rows.map((row) => row.symbol);
}

/** The `limit` most recent candles, oldest first: read newest-first through the primary key, then reversed. */
export async function recentCandles(
  db: Kysely<Database>,
  pair: string,
  timeframeSec: number,
  limit: number,
): Promise<Candle[]> {
  const rows = await db
    .selectFrom('market_candles')
    .select(['bucket_start as time', 'open', 'high', 'low', 'close', 'volume'])
    .where('pair', '=', pair)
    .where('timeframe_sec', '=', timeframeSec)
    .orderBy('bucket_start', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}
