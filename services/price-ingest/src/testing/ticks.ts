import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

/** Stores ticks as the feed would (without candles), in one statement; returns their row ids in order. */
export async function storeTicks(
  db: Kysely<Database> | Transaction<Database>,
  ticks: readonly { pair: string; atMs: number; price: number }[],
): Promise<number[]> {
  if (ticks.length === 0) return [];
  const rows = await db
    .insertInto('market_ticks')
    .values(ticks.map((tick) => ({ pair: tick.pair, at_ms: tick.atMs, price: tick.price })))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}
