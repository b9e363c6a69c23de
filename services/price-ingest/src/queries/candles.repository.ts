import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { Candle } from '@updown/schemas/api';

type Db = Kysely<Database> | Transaction<Database>;

/** The `limit` most recent candles, oldest first: read newest-first through the primary key, then reversed. */
export async function recentCandles(
  db: Db,
  pair: string,
  timeframeSec: number,
  limit: number,
): Promise<Candle[]> {
  const rows = await db
    .selectFrom('market_candles')
    .select(['bucket_start_sec as time', 'open', 'high', 'low', 'close', 'volume'])
    .where('pair', '=', pair)
    .where('timeframe_sec', '=', timeframeSec)
    .orderBy('bucket_start_sec', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}
