import { sql, type Expression, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { MarketPair } from '@updown/schemas/api';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The pair list as other packages read and change it (the market pages, the admin screens). Each
 * function takes the database or a transaction first; the ones that lock or write take a
 * `Transaction`, so the caller decides what commits with them.
 */

/** More pairs than any real platform lists; bounds every pair query and the caches built on them. */
export const PAIRS_KNOWN_MAX = 1_000;

export type PairRow = MarketPair;

const PAIR_COLUMNS = ['symbol', 'display_name', 'active', 'payout_pct', 'provider'] as const;

/** Every pair, disabled ones included, in display order. */
export async function listPairs(db: Db, limit: number): Promise<PairRow[]> {
  return db
    .selectFrom('market_pairs')
    .select(PAIR_COLUMNS)
    .orderBy('sort_order')
    .orderBy('created_at')
    .orderBy('symbol')
    .limit(limit)
    .execute();
}

export async function listPairSymbols(db: Db, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('market_pairs').select('symbol').orderBy('symbol').limit(limit).execute();
  return rows.map((row) => row.symbol);
}

export async function lockPair(trx: Transaction<Database>, symbol: string): Promise<PairRow | undefined> {
  return trx
    .selectFrom('market_pairs')
    .select(PAIR_COLUMNS)
    .where('symbol', '=', symbol)
    .forUpdate()
    .executeTakeFirst();
}

/** Inserts a pair; undefined when the symbol exists (the primary key decides, even under a race). */
export async function insertPair(
  trx: Transaction<Database>,
  pair: { symbol: string; displayName: string; provider: string; payoutPct: number },
): Promise<PairRow | undefined> {
  return trx
    .insertInto('market_pairs')
    .values({
      symbol: pair.symbol,
      display_name: pair.displayName,
      provider: pair.provider,
      payout_pct: pair.payoutPct,
    })
    .onConflict((oc) => oc.column('symbol').doNothing())
    .returning(PAIR_COLUMNS)
    .executeTakeFirst();
}

export async function setPairActive(
  trx: Transaction<Database>,
  symbol: string,
  active: boolean,
): Promise<PairRow> {
  return trx
    .updateTable('market_pairs')
    .set({ active })
    .where('symbol', '=', symbol)
    .returning(PAIR_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function deletePair(trx: Transaction<Database>, symbol: string): Promise<void> {
  await trx.deleteFrom('market_pairs').where('symbol', '=', symbol).execute();
}

/**
 * Gives every pair the platform's payout. Placement copies the pair's payout onto the trade, so
 * the new figure applies to trades placed from now on.
 */
export async function setEveryPairPayout(trx: Transaction<Database>, payoutPct: number): Promise<void> {
  await trx
    .updateTable('market_pairs')
    .set({ payout_pct: payoutPct })
    .where('payout_pct', '<>', payoutPct)
    .execute();
}

/**
 * A pair's trading terms as scalar subqueries, for a caller that composes them into its own single
 * statement (placement reads them with the wallet's stake terms in one round trip). Null when the
 * pair does not exist. `symbol` is a symbol, or a column of the caller's statement holding one (a
 * batch of placements reads the terms of all its pairs in one statement, one row per pair).
 */
export function pairTermsColumns(symbol: string | Expression<string>) {
  return {
    active: sql<boolean | null>`(select active from market_pairs where symbol = ${symbol})`,
    payoutPct: sql<number | null>`(select payout_pct from market_pairs where symbol = ${symbol})`,
  };
}
