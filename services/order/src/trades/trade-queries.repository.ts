import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { TradeRow } from './trades.repository';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Read-only queries of the trades table for the other packages: a trader's pages, the admin
 * screens, the settlement evidence and the business metrics. Writes happen only in placement and
 * in the settlement path (`settlement-path.repository.ts`).
 */

/** A trader's pending trades whose expiry is after `nowMs`, soonest first. */
export function listActiveTrades(db: Db, userId: string, nowMs: number, limit: number): Promise<TradeRow[]> {
  return db
    .selectFrom('trades')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('expiry_at_ms', '>', nowMs)
    .orderBy('expiry_at_ms')
    .limit(limit)
    .execute();
}

/** A trader's trades, newest first. */
export function listTradeHistory(db: Db, userId: string, limit: number): Promise<TradeRow[]> {
  return db
    .selectFrom('trades')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function findTrade(db: Db, id: string): Promise<TradeRow | undefined> {
  return db.selectFrom('trades').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What the settlement evidence of a trade is looked up by: its pair, entry and exit. */
export interface TradePriceRefs {
  readonly pair: string;
  readonly entry_price: number;
  readonly entry_at_ms: number;
  readonly entry_tick_id: number | null;
  readonly accepted_at_ms: number;
  readonly expiry_at_ms: number;
  readonly exit_tick_id: number | null;
  readonly exit_at_ms: number | null;
  readonly exit_price: number | null;
  /** Settlement's cross-check against the reference feed (`ReferenceCheck`), null without one. */
  readonly reference_check: unknown;
}

export function findTradePriceRefs(db: Db, id: string): Promise<TradePriceRefs | undefined> {
  return db
    .selectFrom('trades')
    .select([
      'pair',
      'entry_price',
      'entry_at_ms',
      'entry_tick_id',
      'accepted_at_ms',
      'expiry_at_ms',
      'exit_tick_id',
      'exit_at_ms',
      'exit_price',
      'reference_check',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Whether the pair has a pending trade (an admin may not delete such a pair). */
export async function hasPendingTrades(db: Db, pair: string): Promise<boolean> {
  const row = await db
    .selectFrom('trades')
    .select(sql<number>`1`.as('one'))
    .where('pair', '=', pair)
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface SettledTradeStats {
  readonly total_trades: number;
  readonly wins: number;
  readonly pnl_cents: number;
}

/**
 * Settled real-money trades of each user asked for, in one statement (no query per user): count,
 * wins and summed P/L. Void trades (stake refunded, no price) are not counted as trades. Users
 * without such trades are absent.
 */
export async function settledRealTradeStats(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, SettledTradeStats>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await sql<SettledTradeStats & { user_id: string }>`
    select user_id, count(*)::bigint as total_trades, count(*) filter (where status = 'won')::bigint as wins,
           coalesce(sum(pnl_cents), 0)::bigint as pnl_cents
    from trades
    where user_id = any(${[...userIds]}::uuid[]) and account_type = 'real' and status in ('won', 'lost', 'draw')
    group by user_id`.execute(db);
  return new Map(
    rows.map((row) => [
      row.user_id,
      { total_trades: row.total_trades, wins: row.wins, pnl_cents: row.pnl_cents },
    ]),
  );
}

export interface OpenExposureRow {
  readonly pair: string;
  readonly direction: string;
  readonly account: string;
  readonly cents: number;
}

/** Stakes of pending trades by pair, direction and book. Reads only pending trades, through the partial index. */
export async function openExposure(db: Db, limit: number): Promise<OpenExposureRow[]> {
  const { rows } = await sql<OpenExposureRow>`
    select pair, direction, account_type as account, sum(amount_cents)::bigint as cents
    from trades
    where status = 'pending'
    group by pair, direction, account_type
    order by pair, direction, account_type
    limit ${limit}`.execute(db);
  return rows;
}

/** The pair of each given trade (unknown ids are absent): for lists that name trades by id. */
export async function tradePairs(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('trades')
    .select(['id', 'pair'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.pair]));
}
