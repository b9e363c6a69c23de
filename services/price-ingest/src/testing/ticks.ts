import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { TickChain } from '../chain/tick-chain';
import { insertTicksAndCandles } from '../market.repository';

/**
 * Stores ticks as the feed would (hash-chained per pair, without candles), in one transaction;
 * returns their row ids in order. A tick not later than its pair's head fails the call, where the
 * feed would drop it: a test that stores one means something else. A per-pair advisory lock stands in for price-ingest being the
 * chain's single writer, so tests that store ticks of one pair concurrently still link them in turn.
 */
export async function storeTicks(
  db: Kysely<Database> | Transaction<Database>,
  ticks: readonly { pair: string; atMs: number; price: number }[],
): Promise<number[]> {
  if (ticks.length === 0) return [];
  const write = async (trx: Transaction<Database>) => {
    const pairs = [...new Set(ticks.map((t) => t.pair))].sort();
    await sql`select pg_advisory_xact_lock(hashtext('tick-chain:' || p)) from unnest(${pairs}::text[]) as p`.execute(
      trx,
    );
    const { chained: linked, refused } = await new TickChain().link(trx, ticks);
    if (refused.length > 0) {
      const [first] = refused;
      throw new Error(
        `storeTicks: ${refused.length} tick(s) not later than their pair's chain head, e.g. ${first!.pair} at ${first!.atMs}: tick times rise strictly along a chain`,
      );
    }
    await insertTicksAndCandles(trx, linked, []);
    const rows = await trx
      .selectFrom('market_ticks')
      .select(['id', 'pair', 'seq'])
      .where((eb) => eb.or(linked.map((t) => eb.and([eb('pair', '=', t.pair), eb('seq', '=', t.seq)]))))
      .execute();
    const ids = new Map(rows.map((r) => [`${r.pair}:${r.seq}`, r.id]));
    return linked.map((t) => ids.get(`${t.pair}:${t.seq}`)!);
  };
  return db.isTransaction ? write(db as Transaction<Database>) : db.transaction().execute(write);
}

/**
 * Whether a pair waits on its reference feed for `atMs`: it has a reference provider and no stored
 * reference tick stamped at or after `atMs` yet. False for an unknown pair or one without a reference.
 */
export async function awaitsReferenceTick(
  db: Kysely<Database>,
  pair: string,
  atMs: number,
): Promise<boolean> {
  const { rows } = await sql<{ reference: string | null; latest: string | null }>`
    select p.reference_provider as reference,
           (select max(r.at_ms) from market_reference_ticks r where r.pair = p.symbol) as latest
    from market_pairs p where p.symbol = ${pair}`.execute(db);
  const row = rows[0];
  return row !== undefined && row.reference !== null && (row.latest === null || Number(row.latest) < atMs);
}
