import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  allColumns,
  numberArray,
  preparedStatement,
  selectList,
  textArray,
  type Database,
  type SqlTransaction,
} from '@updown/runtime';
import { lockBooks } from '@updown/wallet';
import type { RiskPairsTable } from '../db/tables';
import {
  breakerTrips,
  breakerWindowStart,
  EMPTY_BOOK,
  minuteOf,
  potentialProfitCents,
  suspensionReason,
  type Direction,
  type PairBook,
  type PairRisk,
  type PairRiskSettings,
} from './risk.domain';
import type { TraderCaps } from './risk-settings.domain';

/**
 * The risk tables' statements (migration 0036). The books (`risk_pairs`) change only in the
 * transactions that open and settle real trades, under the wallet's lock protocol level 5.
 */

export type RiskPairRow = Selectable<RiskPairsTable>;

/** Every column of `risk_pairs`, named, for the placement's prepared statements (`trades.repository.ts`). */
const RISK_PAIR_COLUMNS = allColumns<RiskPairRow>()([
  'pair',
  'exposure_cap_up_cents',
  'exposure_cap_down_cents',
  'skew_max_pct',
  'skew_full_at_cents',
  'loss_limit_cents',
  'loss_window_min',
  'up_open_trades',
  'up_stake_cents',
  'up_profit_cents',
  'down_open_trades',
  'down_stake_cents',
  'down_profit_cents',
  'suspended_at_ms',
  'suspended_reason',
  'resumed_at_ms',
]);

// The arrays of these statements are scalar subqueries so that PostgreSQL keeps one generic plan
// for them whatever the batch's size, instead of planning them on every placement (`executePrepared`).
const selectBooksForUpdate = preparedStatement<RiskPairRow, [pairs: string]>(`
  select ${selectList(RISK_PAIR_COLUMNS)} from risk_pairs where pair = any((select $1::text[])::text[]) order by pair for update`);

const insertMissingBooks = preparedStatement<never, [pairs: string]>(`
  insert into risk_pairs (pair) select unnest($1::text[]) on conflict (pair) do nothing`);

/**
 * Taking out never goes below zero: a book that drifted from its trades (only trades written
 * around placement can do that; `bookDrift` finds it, `recountBooks` mends it) must not stop
 * settlement from paying them.
 */
type BookParams = [
  pairs: string,
  upN: string,
  upStake: string,
  upProfit: string,
  downN: string,
  downStake: string,
  downProfit: string,
];

const ADD_TO_BOOKS = `
  update risk_pairs r
  set up_open_trades = greatest(0, r.up_open_trades + d.up_n),
      up_stake_cents = greatest(0, r.up_stake_cents + d.up_stake),
      up_profit_cents = greatest(0, r.up_profit_cents + d.up_profit),
      down_open_trades = greatest(0, r.down_open_trades + d.down_n),
      down_stake_cents = greatest(0, r.down_stake_cents + d.down_stake),
      down_profit_cents = greatest(0, r.down_profit_cents + d.down_profit)
  from unnest((select $1::text[]), (select $2::int[]), (select $3::bigint[]), (select $4::bigint[]),
              (select $5::int[]), (select $6::bigint[]), (select $7::bigint[]))
    as d (pair, up_n, up_stake, up_profit, down_n, down_stake, down_profit)
  where r.pair = d.pair`;

const addToBooks = preparedStatement<RiskPairRow, BookParams>(
  `${ADD_TO_BOOKS}
  returning ${selectList(RISK_PAIR_COLUMNS, 'r')}`,
);

/** The same update for a placement, which reads nothing back: no rows to describe and build. */
const addToBooksQuietly = preparedStatement<never, BookParams>(ADD_TO_BOOKS);

export function settingsOf(row: RiskPairRow): PairRiskSettings {
  return {
    capCents: { UP: row.exposure_cap_up_cents, DOWN: row.exposure_cap_down_cents },
    skewMaxPct: row.skew_max_pct,
    skewFullAtCents: row.skew_full_at_cents,
    lossLimitCents: row.loss_limit_cents,
    lossWindowMin: row.loss_window_min,
  };
}

export function bookOf(row: RiskPairRow): PairBook {
  return {
    UP: { openTrades: row.up_open_trades, stakeCents: row.up_stake_cents, profitCents: row.up_profit_cents },
    DOWN: {
      openTrades: row.down_open_trades,
      stakeCents: row.down_stake_cents,
      profitCents: row.down_profit_cents,
    },
  };
}

export function pairRiskOf(row: RiskPairRow): PairRisk {
  return { settings: settingsOf(row), book: bookOf(row), suspendedReason: row.suspended_reason };
}

/** A pair no admin has configured: no caps, no skew, no breaker, an empty book. */
export const DEFAULT_PAIR_RISK: PairRisk = {
  settings: {
    capCents: { UP: null, DOWN: null },
    skewMaxPct: 0,
    skewFullAtCents: 100_000,
    lossLimitCents: null,
    lossWindowMin: 60,
  },
  book: EMPTY_BOOK,
  suspendedReason: null,
};

/**
 * Locks the books of these pairs (level 5 of the wallet's lock protocol), in pair order, creating
 * the missing ones. Only known pairs are passed: a book is never made for a symbol that is not a pair.
 */
export async function lockPairRisks(
  trx: SqlTransaction,
  pairs: readonly string[],
): Promise<Map<string, RiskPairRow>> {
  const wanted = [...new Set(pairs)].sort();
  const books = await lockExistingPairRisks(trx, wanted);
  if (books.size === wanted.length) return books;
  return lockBooks(trx, async () => {
    const literal = textArray(wanted, same);
    await insertMissingBooks(trx, literal);
    return booksByPair((await selectBooksForUpdate(trx, literal)).rows);
  });
}

/**
 * Locks the books that exist among `symbols` (level 5), in pair order, and makes none: for a
 * caller that takes the lock before it knows which of its symbols are pairs (a placement batch
 * sends it with its reads), then `lockPairRisks` for the pairs whose book it did not find. Every
 * existing book is locked before any is made, and a book made is a new row no one else holds.
 */
export async function lockExistingPairRisks(
  trx: SqlTransaction,
  symbols: readonly string[],
): Promise<Map<string, RiskPairRow>> {
  const wanted = [...new Set(symbols)].sort();
  return lockBooks(trx, async () => {
    if (wanted.length === 0) return new Map();
    return booksByPair((await selectBooksForUpdate(trx, textArray(wanted, same))).rows);
  });
}

function booksByPair(rows: readonly RiskPairRow[]): Map<string, RiskPairRow> {
  const books = new Map<string, RiskPairRow>();
  for (const row of rows) books.set(row.pair, row);
  return books;
}

interface BookDelta {
  readonly pair: string;
  readonly direction: Direction;
  readonly amountCents: number;
  readonly payoutPct: number;
}

function sumByPair(trades: readonly BookDelta[]) {
  const sums = new Map<
    string,
    { upN: number; upStake: number; upProfit: number; downN: number; downStake: number; downProfit: number }
  >();
  for (const t of trades) {
    const s = sums.get(t.pair) ?? { upN: 0, upStake: 0, upProfit: 0, downN: 0, downStake: 0, downProfit: 0 };
    const profit = potentialProfitCents(t.amountCents, t.payoutPct);
    if (t.direction === 'UP') {
      s.upN++;
      s.upStake += t.amountCents;
      s.upProfit += profit;
    } else {
      s.downN++;
      s.downStake += t.amountCents;
      s.downProfit += profit;
    }
    sums.set(t.pair, s);
  }
  return [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Adds (sign 1) or takes out (sign −1) open real trades from their pairs' books, one statement
 * for all. The caller holds the books (`lockPairRisks`). Returns the rows as updated.
 */
export async function changeBooks(
  trx: SqlTransaction,
  trades: readonly BookDelta[],
  sign: 1 | -1,
): Promise<RiskPairRow[]> {
  const params = bookParams(trades, sign);
  if (params === undefined) return [];
  const { rows } = await addToBooks(trx, ...params);
  return rows;
}

/** `changeBooks(trx, trades, 1)` for a placement batch, which does not read the books back. */
export async function addToPlacedBooks(trx: SqlTransaction, trades: readonly BookDelta[]): Promise<void> {
  const params = bookParams(trades, 1);
  if (params !== undefined) await addToBooksQuietly(trx, ...params);
}

function bookParams(trades: readonly BookDelta[], sign: 1 | -1): BookParams | undefined {
  const sums = sumByPair(trades);
  if (sums.length === 0) return undefined;
  const col = (pick: (s: (typeof sums)[number][1]) => number) => numberArray(sums, ([, s]) => sign * pick(s));
  return [
    textArray(sums, ([pair]) => pair),
    col((s) => s.upN),
    col((s) => s.upStake),
    col((s) => s.upProfit),
    col((s) => s.downN),
    col((s) => s.downStake),
    col((s) => s.downProfit),
  ];
}

const same = (text: string) => text;

/** The open real trades of each pair as the trades table has them, in the books' columns. */
const BOOKS_FROM_TRADES = sql`
  select pair,
         count(*) filter (where direction = 'UP')::int as up_open_trades,
         coalesce(sum(amount_cents) filter (where direction = 'UP'), 0)::bigint as up_stake_cents,
         coalesce(sum(amount_cents * round(payout_pct * 100)::bigint / 10000) filter (where direction = 'UP'), 0)::bigint
           as up_profit_cents,
         count(*) filter (where direction = 'DOWN')::int as down_open_trades,
         coalesce(sum(amount_cents) filter (where direction = 'DOWN'), 0)::bigint as down_stake_cents,
         coalesce(sum(amount_cents * round(payout_pct * 100)::bigint / 10000) filter (where direction = 'DOWN'), 0)::bigint
           as down_profit_cents
  from trades where status = 'pending' and account_type = 'real'
  group by pair`;

/**
 * The pairs whose book differs from their open real trades (none, as long as every trade was
 * opened by placement and closed by settlement): what `ledger:verify`-style checks and the race
 * tests assert is empty.
 */
export async function bookDrift(
  db: Kysely<Database> | Transaction<Database>,
): Promise<{ pair: string; book: PairBook; trades: PairBook }[]> {
  const { rows } = await sql<{ pair: string; book: number[]; trades: number[] }>`
    with t as (${BOOKS_FROM_TRADES}),
    b as (
      select pair, array[up_open_trades, up_stake_cents, up_profit_cents, down_open_trades, down_stake_cents,
                         down_profit_cents]::bigint[] as v
      from risk_pairs
    ),
    o as (
      select pair, array[up_open_trades, up_stake_cents, up_profit_cents, down_open_trades, down_stake_cents,
                         down_profit_cents]::bigint[] as v
      from t
    )
    select coalesce(b.pair, o.pair) as pair, coalesce(b.v, '{0,0,0,0,0,0}') as book,
           coalesce(o.v, '{0,0,0,0,0,0}') as trades
    from b full join o on o.pair = b.pair
    where coalesce(b.v, '{0,0,0,0,0,0}') is distinct from coalesce(o.v, '{0,0,0,0,0,0}')
    order by 1`.execute(db);
  const asBook = (v: readonly (number | string)[]): PairBook => {
    const n = v.map(Number);
    return {
      UP: { openTrades: n[0]!, stakeCents: n[1]!, profitCents: n[2]! },
      DOWN: { openTrades: n[3]!, stakeCents: n[4]!, profitCents: n[5]! },
    };
  };
  return rows.map((row) => ({ pair: row.pair, book: asBook(row.book), trades: asBook(row.trades) }));
}

/**
 * Sets the books from the open real trades: for data written around placement (fixtures, the
 * storm's seed, a restore), and the mend for a drift. Locks every book it rewrites.
 */
export async function recountBooks(trx: Transaction<Database>): Promise<void> {
  await sql`
    with t as (${BOOKS_FROM_TRADES}),
    zeroed as (
      update risk_pairs set up_open_trades = 0, up_stake_cents = 0, up_profit_cents = 0, down_open_trades = 0,
                            down_stake_cents = 0, down_profit_cents = 0
      where pair not in (select pair from t)
    )
    insert into risk_pairs (pair, up_open_trades, up_stake_cents, up_profit_cents, down_open_trades,
                            down_stake_cents, down_profit_cents)
    select * from t
    on conflict (pair) do update set
      up_open_trades = excluded.up_open_trades, up_stake_cents = excluded.up_stake_cents,
      up_profit_cents = excluded.up_profit_cents, down_open_trades = excluded.down_open_trades,
      down_stake_cents = excluded.down_stake_cents, down_profit_cents = excluded.down_profit_cents`.execute(
    trx,
  );
}

export interface SettledRealTrade extends BookDelta {
  /** The trader's P/L; the house's is its opposite. */
  readonly pnlCents: number;
}

export interface Suspension {
  readonly pair: string;
  readonly reason: string;
  readonly windowPnlCents: number;
}

/**
 * Settlement's part of the risk controls, at the end of its transaction: takes the settled real
 * trades out of their pairs' books, adds the house's P/L to the pairs' minute, and trips the loss
 * breaker of every pair whose window P/L is now below its limit. Returns the new suspensions.
 */
export async function settleIntoBooks(
  trx: Transaction<Database>,
  trades: readonly SettledRealTrade[],
  nowMs: number,
): Promise<Suspension[]> {
  if (trades.length === 0) return [];
  const pairs = [...new Set(trades.map((t) => t.pair))];
  await lockPairRisks(trx, pairs);
  const rows = await changeBooks(trx, trades, -1);
  const housePnl = new Map<string, number>();
  for (const t of trades) housePnl.set(t.pair, (housePnl.get(t.pair) ?? 0) - t.pnlCents);
  const minute = minuteOf(nowMs);
  await sql`
    insert into risk_house_pnl (pair, minute_ms, pnl_cents)
    select pair, ${minute}::bigint, pnl from unnest(${[...housePnl.keys()]}::text[], ${[...housePnl.values()]}::bigint[]) as h (pair, pnl)
    on conflict (pair, minute_ms) do update set pnl_cents = risk_house_pnl.pnl_cents + excluded.pnl_cents`.execute(
    trx,
  );
  const armed = rows.filter((row) => row.loss_limit_cents !== null && row.suspended_at_ms === null);
  if (armed.length === 0) return [];
  const windows = await windowPnl(trx, armed, nowMs);
  const tripped: Suspension[] = [];
  for (const row of armed) {
    const pnl = windows.get(row.pair) ?? 0;
    if (breakerTrips(pnl, row.loss_limit_cents)) {
      tripped.push({
        pair: row.pair,
        windowPnlCents: pnl,
        reason: suspensionReason(pnl, row.loss_limit_cents!, row.loss_window_min),
      });
    }
  }
  if (tripped.length > 0) {
    await sql`
      update risk_pairs r set suspended_at_ms = ${nowMs}::bigint, suspended_reason = s.reason
      from unnest(${tripped.map((t) => t.pair)}::text[], ${tripped.map((t) => t.reason)}::text[]) as s (pair, reason)
      where r.pair = s.pair`.execute(trx);
  }
  return tripped;
}

/** The house's P/L per pair over each pair's breaker window (since its last resume, if later). */
export async function windowPnl(
  db: Kysely<Database> | Transaction<Database>,
  pairs: readonly Pick<RiskPairRow, 'pair' | 'loss_window_min' | 'resumed_at_ms'>[],
  nowMs: number,
): Promise<Map<string, number>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await sql<{ pair: string; pnl: number }>`
    select w.pair, coalesce(sum(h.pnl_cents), 0)::bigint as pnl
    from unnest(${pairs.map((p) => p.pair)}::text[],
                ${pairs.map((p) => breakerWindowStart(nowMs, p.loss_window_min, p.resumed_at_ms))}::bigint[])
      as w (pair, since)
    left join risk_house_pnl h on h.pair = w.pair and h.minute_ms >= w.since
    group by w.pair`.execute(db);
  return new Map(rows.map((r) => [r.pair, Number(r.pnl)]));
}

/** The house's P/L per pair since `sinceMs` (the Risk tab's "today"), of these pairs or of all. */
export async function pnlSince(
  db: Kysely<Database> | Transaction<Database>,
  sinceMs: number,
  pairs?: readonly string[],
): Promise<Map<string, number>> {
  const { rows } = await sql<{ pair: string; pnl: number }>`
    select pair, sum(pnl_cents)::bigint as pnl from risk_house_pnl
    where minute_ms >= ${minuteOf(sinceMs)}::bigint
      ${pairs ? sql`and pair = any(${[...pairs]}::text[])` : sql``}
    group by pair`.execute(db);
  return new Map(rows.map((r) => [r.pair, Number(r.pnl)]));
}

/** The risk rows of these pairs, or of every pair (the Risk tab, the pairs list's payouts, the metrics). */
export async function listPairRisks(
  db: Kysely<Database>,
  pairs?: readonly string[],
): Promise<Map<string, RiskPairRow>> {
  if (pairs && pairs.length === 0) return new Map();
  let query = db.selectFrom('risk_pairs').selectAll().orderBy('pair');
  if (pairs) query = query.where('pair', 'in', [...pairs]);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.pair, row]));
}

/** Writes a pair's settings (the admin's), creating its row; returns it. The book is not touched. */
export async function writePairRiskSettings(
  trx: Transaction<Database>,
  pair: string,
  settings: PairRiskSettings,
): Promise<RiskPairRow> {
  const values = {
    exposure_cap_up_cents: settings.capCents.UP,
    exposure_cap_down_cents: settings.capCents.DOWN,
    skew_max_pct: settings.skewMaxPct,
    skew_full_at_cents: settings.skewFullAtCents,
    loss_limit_cents: settings.lossLimitCents,
    loss_window_min: settings.lossWindowMin,
  };
  return trx
    .insertInto('risk_pairs')
    .values({ pair, ...values })
    .onConflict((oc) => oc.column('pair').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Locks one pair's risk row for an admin change, creating it; undefined never (the pair is known). */
export async function lockPairRiskForChange(trx: Transaction<Database>, pair: string): Promise<RiskPairRow> {
  const rows = await lockPairRisks(trx, [pair]);
  return rows.get(pair)!;
}

/** Forgets a deleted pair's risk settings and book (its P/L history stays); the pair has no open trade. */
export async function forgetPairRisk(trx: Transaction<Database>, pair: string): Promise<void> {
  await trx.deleteFrom('risk_pairs').where('pair', '=', pair).execute();
}

/** Lifts a pair's suspension; its breaker counts again from the next whole minute. */
export async function resumePair(
  trx: Transaction<Database>,
  pair: string,
  nowMs: number,
): Promise<RiskPairRow> {
  return trx
    .updateTable('risk_pairs')
    .set({ suspended_at_ms: null, suspended_reason: null, resumed_at_ms: nowMs })
    .where('pair', '=', pair)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function readTraderDefaults(db: Kysely<Database> | Transaction<Database>): Promise<TraderCaps> {
  const row = await db.selectFrom('risk_settings').selectAll().executeTakeFirstOrThrow();
  return { openStakeCentsMax: row.trader_max_open_stake_cents, openTradesMax: row.trader_max_open_trades };
}

/** The default caps, locked: a trader's own caps are checked against the defaults they end up under. */
export async function lockTraderDefaults(trx: Transaction<Database>): Promise<TraderCaps> {
  const row = await trx.selectFrom('risk_settings').selectAll().forUpdate().executeTakeFirstOrThrow();
  return { openStakeCentsMax: row.trader_max_open_stake_cents, openTradesMax: row.trader_max_open_trades };
}

export async function writeTraderDefaults(trx: Transaction<Database>, caps: TraderCaps): Promise<TraderCaps> {
  await trx
    .updateTable('risk_settings')
    .set({ trader_max_open_stake_cents: caps.openStakeCentsMax, trader_max_open_trades: caps.openTradesMax })
    .execute();
  return caps;
}

/** Each listed user's own caps; users without are absent. */
export async function traderLimitsOf(
  db: Kysely<Database> | Transaction<Database>,
  userIds: readonly string[],
): Promise<Map<string, TraderCaps>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('risk_trader_limits')
    .selectAll()
    .where('user_id', 'in', [...userIds])
    .execute();
  return new Map(
    rows.map((r) => [
      r.user_id,
      { openStakeCentsMax: r.max_open_stake_cents, openTradesMax: r.max_open_trades },
    ]),
  );
}

/** Sets a trader's own caps; both null removes them. */
export async function writeTraderLimits(
  trx: Transaction<Database>,
  userId: string,
  caps: TraderCaps,
): Promise<void> {
  if (caps.openStakeCentsMax === null && caps.openTradesMax === null) {
    await trx.deleteFrom('risk_trader_limits').where('user_id', '=', userId).execute();
    return;
  }
  const values = { max_open_stake_cents: caps.openStakeCentsMax, max_open_trades: caps.openTradesMax };
  await trx
    .insertInto('risk_trader_limits')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}
