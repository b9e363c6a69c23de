import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { REFERENCE_AGE_MS_MAX } from '@updown/verify/rules';
import type { Database } from '@updown/runtime';

type Db = Kysely<Database> | Transaction<Database>;

/** Reads of the stored ticks for the packages that settle trades on them and show the evidence. */

export interface StoredTick {
  readonly id: number;
  readonly atMs: number;
  readonly price: number;
}

/** A stored tick as the columns of a statement that selects it. */
interface StoredTickRow {
  readonly id: number;
  readonly at_ms: number;
  readonly price: number;
}

/** The newest stored tick time of each pair asked for (pairs with no tick are absent). */
export async function latestTickAtMs(db: Db, pairs: readonly string[]): Promise<Map<string, number>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await sql<{ pair: string; at_ms: number | null }>`
    select p.pair, (select max(m.at_ms) from market_ticks m where m.pair = p.pair) as at_ms
    from unnest(${[...pairs]}::text[]) as p (pair)`.execute(db);
  return new Map(rows.flatMap((r) => (r.at_ms === null ? [] : [[r.pair, r.at_ms] as const])));
}

/**
 * Stored ticks of `pair` from `atMs - beforeMs` to `atMs + afterMs`, the `limit` closest to `atMs`
 * when there are more, returned in time order.
 */
export async function ticksAround(
  db: Db,
  pair: string,
  atMs: number,
  window: { readonly beforeMs: number; readonly afterMs: number; readonly limit: number },
): Promise<StoredTick[]> {
  const { rows } = await sql<StoredTick>`
    select id, at_ms as "atMs", price from (
      select id, at_ms, price from market_ticks
      where pair = ${pair} and at_ms between ${atMs - window.beforeMs} and ${atMs + window.afterMs}
      order by abs(at_ms - ${atMs}), id
      limit ${window.limit}
    ) w order by at_ms, id`.execute(db);
  return rows;
}

/**
 * The body of a lateral subquery for a caller's statement: the stored tick of `pair` with the
 * greatest `at_ms <= atMs`, ties broken by the highest id, as columns `id`, `at_ms`, `price`. `pair` and
 * `atMs` are column references of the caller's query (`sql.raw('g.pair')`), so the look-up runs
 * once per row inside one statement instead of once per round trip. Served by the (pair, at_ms) index.
 */
export function tickAtOrBeforeSql(
  pair: RawBuilder<unknown>,
  atMs: RawBuilder<unknown>,
): RawBuilder<StoredTickRow> {
  return sql<StoredTickRow>`select m.id, m.at_ms, m.price from market_ticks m
        where m.pair = ${pair} and m.at_ms <= ${atMs}
        order by m.at_ms desc, m.id desc
        limit 1`;
}

/**
 * The reference feed's price in force at `atMs`: its latest stored tick from `provider` at or
 * before `atMs` and no more than `REFERENCE_AGE_MS_MAX` (10 s) older. Nothing when `pair` is null
 * (the caller's pair has no reference), so a pair without one costs no index probe.
 */
export function referenceAtOrBeforeSql(
  pair: RawBuilder<unknown>,
  provider: RawBuilder<unknown>,
  atMs: RawBuilder<unknown>,
): RawBuilder<{ at_ms: number; price: number }> {
  return sql<{ at_ms: number; price: number }>`select rt.at_ms, rt.price from market_reference_ticks rt
        where ${pair} is not null and rt.pair = ${pair} and rt.provider = ${provider}
          and rt.at_ms <= ${atMs} and rt.at_ms >= ${atMs} - ${sql.lit(REFERENCE_AGE_MS_MAX)}::bigint
        order by rt.at_ms desc
        limit 1`;
}
