import { sql, type Expression, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { MarketPair } from '@updown/schemas/api';
import { pairFeedStatus } from '../feed-health/feed-status.domain';
import type { PairFeedConfig } from '../pairs/pair-rules.domain';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The pair list as other packages read and change it (the market pages, the admin screens). Each
 * function takes the database or a transaction first; the ones that lock or write take a
 * `Transaction`, so the caller decides what commits with them.
 */

/** More pairs than any real platform lists; bounds every pair query and the caches built on them. */
export const PAIRS_KNOWN_MAX = 1_000;

/** A pair as price-ingest knows it: the API's, without the payouts and status the risk controls add (the order service's). */
export type PairWithStatus = Omit<MarketPair, 'payout_up_pct' | 'payout_down_pct' | 'real_trading'>;

/** A pair as stored: its terms and its feed configuration. */
export type PairRow = Omit<PairWithStatus, 'feed_status'>;

const PAIR_COLUMNS = [
  'symbol',
  'display_name',
  'active',
  'payout_pct',
  'provider',
  'provider_symbol',
  'reference_provider',
  'reference_symbol',
  'reference_spread_bps',
] as const;

/**
 * Pairs with their feed status as the feeds last reported it (`market_feed_status`, rewritten by
 * price-ingest every second), decided at `nowMs` by `pairFeedStatus`.
 */
function pairsWithStatus(db: Db) {
  return db
    .selectFrom('market_pairs as p')
    .leftJoin('market_feed_status as f', (join) =>
      join.onRef('f.pair', '=', 'p.symbol').on('f.role', '=', 'primary'),
    )
    .leftJoin('market_feed_status as r', (join) =>
      join.onRef('r.pair', '=', 'p.symbol').on('r.role', '=', 'reference'),
    )
    .select(PAIR_COLUMNS.map((column) => `p.${column}` as const))
    .select([
      'f.last_tick_at_ms as primary_at_ms',
      'f.divergence_bps',
      'r.last_tick_at_ms as reference_at_ms',
      'f.provider as primary_provider',
      'r.provider as reporting_reference_provider',
    ]);
}

type PairStatusRow = PairRow & {
  primary_at_ms: number | null;
  divergence_bps: number | null;
  reference_at_ms: number | null;
  primary_provider: string | null;
  reporting_reference_provider: string | null;
};

/**
 * The status from the stored report. A report of another provider than the one configured (the
 * pair was just switched) counts as no report: the new feed has not ticked yet.
 */
function withFeedStatus(row: PairStatusRow, nowMs: number): PairWithStatus {
  const {
    primary_at_ms,
    divergence_bps,
    reference_at_ms,
    primary_provider,
    reporting_reference_provider,
    ...pair
  } = row;
  const primaryAt = primary_provider === pair.provider ? primary_at_ms : null;
  const spreadBps = pair.reference_spread_bps;
  const reference =
    pair.reference_provider === null || spreadBps === null
      ? null
      : {
          lastTickAtMs: reporting_reference_provider === pair.reference_provider ? reference_at_ms : null,
          agrees: divergence_bps === null ? null : divergence_bps <= spreadBps,
        };
  const feed_status = pairFeedStatus({ lastTickAtMs: primaryAt, reference }, nowMs);
  return { ...pair, feed_status };
}

/** Every pair, disabled ones included, in display order, with its feed status at `nowMs`. */
export async function listPairs(db: Db, limit: number, nowMs: number): Promise<PairWithStatus[]> {
  const rows = await pairsWithStatus(db)
    .orderBy('p.sort_order')
    .orderBy('p.created_at')
    .orderBy('p.symbol')
    .limit(limit)
    .execute();
  return rows.map((row) => withFeedStatus(row, nowMs));
}

/** One pair with its feed status, or undefined. */
export async function readPair(db: Db, symbol: string, nowMs: number): Promise<PairWithStatus | undefined> {
  const row = await pairsWithStatus(db).where('p.symbol', '=', symbol).executeTakeFirst();
  return row && withFeedStatus(row, nowMs);
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
  pair: { symbol: string; displayName: string; payoutPct: number } & PairFeedConfig,
): Promise<PairRow | undefined> {
  return trx
    .insertInto('market_pairs')
    .values({
      symbol: pair.symbol,
      display_name: pair.displayName,
      payout_pct: pair.payoutPct,
      ...feedColumns(pair),
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

function feedColumns(feed: PairFeedConfig) {
  return {
    provider: feed.provider,
    provider_symbol: feed.providerSymbol,
    reference_provider: feed.referenceProvider,
    reference_symbol: feed.referenceSymbol,
    reference_spread_bps: feed.referenceSpreadBps,
  };
}

/** Replaces a pair's feed configuration; price-ingest's pairs poll moves the feed over. */
export async function setPairFeed(
  trx: Transaction<Database>,
  symbol: string,
  feed: PairFeedConfig,
): Promise<PairRow> {
  return trx
    .updateTable('market_pairs')
    .set(feedColumns(feed))
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

/**
 * The reference feed (provider and spread) of each pair among `pairs` (a subquery of the caller's
 * statement yielding symbols) that has one, as rows `(pair, reference_provider,
 * reference_spread_bps)`: settlement's lock statement reads them with its due trades.
 */
export function pairReferencesSql(pairs: RawBuilder<unknown>) {
  return sql<{ pair: string; reference_provider: string; reference_spread_bps: number }>`
      select symbol as pair, reference_provider, reference_spread_bps
      from market_pairs
      where symbol in (${pairs}) and reference_provider is not null`;
}
