import { sql, type Kysely, type Transaction } from 'kysely';
import { committedAfter, type Database, type OutboxSourcePosition } from '@updown/runtime';
import { pairReferencesSql, referenceAtOrBeforeSql, tickAtOrBeforeSql } from '@updown/price-ingest';
import type { TradesTable } from '../db/tables';
import { countTradesAfter } from './publish-positions.repository';

/**
 * How settlement moves trades out of pending: the functions the settlement service calls on the
 * trades table, which this package owns. Each takes the database or a transaction first; the ones
 * that lock take a `Transaction`.
 */

export type TradeDirection = 'UP' | 'DOWN';
export type TradeOutcome = 'won' | 'lost' | 'draw' | 'void';

export interface PendingTradeRef {
  readonly id: string;
  readonly pair: string;
  readonly expiry_at_ms: number;
}

/** One page of pending trades in expiry order, after `after` (keyset paging, so each page is an index range). */
export async function loadPendingPage(
  db: Kysely<Database>,
  after: { expiryAtMs: number; id: string } | undefined,
  limit: number,
): Promise<PendingTradeRef[]> {
  let query = db
    .selectFrom('trades')
    .select(['id', 'pair', 'expiry_at_ms'])
    .where('status', '=', 'pending')
    .orderBy('expiry_at_ms')
    .orderBy('id')
    .limit(limit);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('expiry_at_ms', '>', after.expiryAtMs),
        eb.and([eb('expiry_at_ms', '=', after.expiryAtMs), eb('id', '>', after.id)]),
      ]),
    );
  }
  return query.execute();
}

/**
 * Pairs with pending trades that expired before `beforeAtMs`: the safety net for trades the schedule
 * never heard of (a lost event, a full schedule). Reads only the pending part of the index.
 */
export async function overduePendingPairs(
  db: Kysely<Database>,
  beforeAtMs: number,
  limit: number,
): Promise<{ pair: string; earliest: number }[]> {
  return db
    .selectFrom('trades')
    .select(['pair', (eb) => eb.fn.min<number>('expiry_at_ms').as('earliest')])
    .where('status', '=', 'pending')
    .where('expiry_at_ms', '<', beforeAtMs)
    .groupBy('pair')
    .orderBy('pair')
    .limit(limit)
    .execute();
}

/**
 * A share of the trades by owner: those whose user id's last byte is `index` modulo `count`. With
 * `count` dividing 16 this is the owner's last hex digit modulo `count` (the wallet's
 * `ownerShard`), so settlers of different shares touch disjoint trades, users and house shards.
 */
export interface TradePartition {
  readonly index: number;
  readonly count: number;
}

const WHOLE: TradePartition = { index: 0, count: 1 };

export interface DueTradeRow {
  readonly id: string;
  readonly user_id: string;
  readonly pair: string;
  readonly direction: TradeDirection;
  readonly account_type: 'demo' | 'real';
  readonly amount_cents: number;
  readonly stake_cash_cents: number;
  readonly stake_bonus_cents: number;
  readonly payout_pct: number;
  readonly duration_sec: number;
  readonly entry_price: number;
  readonly expiry_at_ms: number;
  readonly exit_tick_id: number | null;
  readonly exit_at_ms: number | null;
  readonly exit_price: number | null;
  readonly accepted_at_ms: number;
  /** The pair's reference feed and spread now; null for a pair without one. */
  readonly reference_provider: string | null;
  readonly reference_spread_bps: number | null;
  /** The reference's price in force at acceptance and at expiry (its latest in the 10 s before); null without. */
  readonly entry_ref_price: number | null;
  readonly entry_ref_at_ms: number | null;
  readonly expiry_ref_price: number | null;
  readonly expiry_ref_at_ms: number | null;
}

/**
 * Locks up to `limit` pending trades that are due (`expiry_at_ms < due_before` of their pair) and
 * finds each group's exit tick: the stored tick with the greatest `at_ms <= expiry_at_ms`, ties broken
 * by the highest id (price-ingest's look-up, run inside this statement). Trades of one pair and
 * expiry share one look-up, hence one exit tick.
 *
 * Rows are locked in (pair, expiry, id) order, so two settlers never deadlock on trades; one
 * waits for the other and then, re-reading `status = 'pending'`, skips what the other settled.
 * `partition` limits the batch to one share of the owners (all of them by default).
 * The exits are materialized: one look-up per (pair, expiry) group. Left to the planner, the
 * look-up was pushed into the join and run once per trade (5,000 index probes and sorts for a
 * batch instead of a few hundred; 136 ms against 23 ms for a batch of 5,000 over 375 expiries).
 *
 * For a pair with a reference feed it also reads the reference's price in force at each group's
 * expiry and at each trade's acceptance (docs/feeds.md). The acceptance look-ups run only for the
 * trades of such pairs (`entry_refs`, joined by id): as a lateral join on every trade they cost a
 * storm of OTC trades a quarter of this statement's time for nothing.
 */
export async function lockDueTrades(
  trx: Transaction<Database>,
  due: readonly { pair: string; dueBefore: number }[],
  limit: number,
  partition: TradePartition = WHOLE,
): Promise<DueTradeRow[]> {
  const { rows } = await sql<DueTradeRow>`
    with due (pair, due_before) as (
      select * from unnest(${due.map((d) => d.pair)}::text[], ${due.map((d) => d.dueBefore)}::bigint[])
    ),
    picked as materialized (
      select t.id, t.user_id, t.pair, t.direction, t.account_type, t.amount_cents, t.stake_cash_cents,
             t.stake_bonus_cents, t.payout_pct, t.duration_sec, t.entry_price, t.expiry_at_ms, t.accepted_at_ms
      from trades t join due d on d.pair = t.pair
      where t.status = 'pending' and t.expiry_at_ms < d.due_before
        and get_byte(uuid_send(t.user_id), 15) % ${partition.count}::int = ${partition.index}::int
      order by t.pair, t.expiry_at_ms, t.id
      limit ${limit}
      for update of t
    ),
    refs as materialized (
      ${pairReferencesSql(sql.raw('select distinct pair from picked'))}
    ),
    exits as materialized (
      select g.pair, g.expiry_at_ms, x.id, x.at_ms, x.price, xr.price as ref_price, xr.at_ms as ref_at_ms
      from (select distinct pair, expiry_at_ms from picked) g
      left join lateral (
        ${tickAtOrBeforeSql(sql.raw('g.pair'), sql.raw('g.expiry_at_ms'))}
      ) x on true
      left join refs gr on gr.pair = g.pair
      left join lateral (
        ${referenceAtOrBeforeSql(sql.raw('gr.pair'), sql.raw('gr.reference_provider'), sql.raw('g.expiry_at_ms'))}
      ) xr on true
    ),
    entry_refs as materialized (
      select p.id, x.price, x.at_ms
      from picked p join refs r on r.pair = p.pair
      cross join lateral (
        ${referenceAtOrBeforeSql(sql.raw('r.pair'), sql.raw('r.reference_provider'), sql.raw('p.accepted_at_ms'))}
      ) x
    )
    select p.*, e.id as exit_tick_id, e.at_ms as exit_at_ms, e.price as exit_price,
           r.reference_provider, r.reference_spread_bps,
           er.price as entry_ref_price, er.at_ms as entry_ref_at_ms,
           e.ref_price as expiry_ref_price, e.ref_at_ms as expiry_ref_at_ms
    from picked p join exits e on e.pair = p.pair and e.expiry_at_ms = p.expiry_at_ms
    left join refs r on r.pair = p.pair
    left join entry_refs er on er.id = p.id
    order by p.pair, p.expiry_at_ms, p.id`.execute(trx);
  return rows;
}

export interface SettledUpdate {
  readonly id: string;
  readonly status: TradeOutcome;
  readonly exitPrice: number | null;
  readonly exitAtMs: number | null;
  readonly exitTickId: number | null;
  readonly pnlCents: number;
  /** The stake this trade counts toward its owner's bonus wagering; 0 when omitted. */
  readonly turnoverCents?: number;
  /** The rule that voided a void trade; null otherwise. */
  readonly voidReason?: TradesTable['void_reason'];
  /** The cross-check against the pair's reference feed (the API's `ReferenceCheck`), null without one. */
  readonly referenceCheck?: object | null;
}

/**
 * Moves the trades from pending to their result in one statement. `status = 'pending'` is the
 * guard that makes settlement happen once: only the ids returned changed, and only they may be
 * paid, counted toward turnover and announced. The turnover is written by the same statement, so
 * each settled row is rewritten once (a second update would add a new version of the row and an
 * entry in each of the table's indexes again). So is the row's publish position: the trades table
 * is the outbox of `trades.settled.v1` (`readSettledAfter`), with no second insert per trade.
 */
export async function markSettled(
  trx: Transaction<Database>,
  updates: readonly SettledUpdate[],
  settledAtMs: number,
): Promise<Set<string>> {
  if (updates.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    update trades t
    set status = u.status, exit_price = u.exit_price, exit_at_ms = u.exit_at_ms, exit_tick_id = u.exit_tick_id,
        pnl_cents = u.pnl_cents, settled_at_ms = ${settledAtMs}, turnover_cents = u.turnover_cents,
        void_reason = u.void_reason, reference_check = u.reference_check::jsonb,
        settled_xact_id = pg_current_xact_id(), settled_seq = nextval('trades_settled_seq')
    from unnest(
      ${updates.map((u) => u.id)}::uuid[],
      ${updates.map((u) => u.status)}::text[],
      ${updates.map((u) => u.exitPrice)}::float8[],
      ${updates.map((u) => u.exitAtMs)}::bigint[],
      ${updates.map((u) => u.exitTickId)}::bigint[],
      ${updates.map((u) => u.pnlCents)}::bigint[],
      ${updates.map((u) => u.turnoverCents ?? 0)}::bigint[],
      ${updates.map((u) => u.voidReason ?? null)}::text[],
      ${updates.map((u) => (u.referenceCheck ? JSON.stringify(u.referenceCheck) : null))}::text[]
    ) as u (id, status, exit_price, exit_at_ms, exit_tick_id, pnl_cents, turnover_cents, void_reason, reference_check)
    where t.id = u.id and t.status = 'pending'
    returning t.id`.execute(trx);
  return new Set(rows.map((r) => r.id));
}

export interface SettledTradeRow {
  readonly id: string;
  readonly user_id: string;
  readonly pair: string;
  readonly direction: TradeDirection;
  readonly account_type: 'demo' | 'real';
  readonly amount_cents: number;
  readonly payout_pct: number;
  readonly entry_price: number;
  readonly entry_at_ms: number;
  readonly accepted_at_ms: number;
  readonly expiry_at_ms: number;
  readonly status: TradeOutcome;
  readonly exit_price: number | null;
  readonly exit_at_ms: number | null;
  readonly pnl_cents: number;
  readonly settled_at_ms: number;
  /** Settlement's cross-check against the reference feed (the API's `ReferenceCheck`); null without one. */
  readonly reference_check: unknown;
  readonly position: OutboxSourcePosition;
}

/**
 * The trades settled after `after` in publish-position order, at most `limit`: what the outbox
 * relay publishes as `trades.settled.v1` (settlement's `settledTradesSource`), and what
 * settlement's receipt issuer signs, each after its own cursor. Only rows whose
 * settling transaction ended before this statement's snapshot (`committedAfter`), so a settlement
 * still running cannot commit a row behind the cursor. An index range of
 * `trades_settled_position`.
 */
export async function readSettledAfter(
  trx: Transaction<Database>,
  after: OutboxSourcePosition | null,
  limit: number,
): Promise<SettledTradeRow[]> {
  const { rows } = await sql<Omit<SettledTradeRow, 'position'> & { xact_id: string; seq: string }>`
    select id, user_id, pair, direction, account_type, amount_cents, payout_pct, entry_price, entry_at_ms,
           accepted_at_ms, expiry_at_ms, status, exit_price, exit_at_ms, pnl_cents, settled_at_ms, reference_check,
           settled_xact_id::text as xact_id, settled_seq::text as seq
    from trades
    where settled_seq is not null
      and ${committedAfter({ xactId: 'settled_xact_id', seq: 'settled_seq' }, after)}
    order by settled_xact_id, settled_seq
    limit ${limit}`.execute(trx);
  return rows.map(({ xact_id, seq, ...row }) => ({ ...row, position: { xactId: xact_id, seq } }));
}

/** How many trades `readSettledAfter` would return after `after` with no limit, counted up to `cap`. */
export function countSettledAfter(
  trx: Transaction<Database>,
  after: OutboxSourcePosition | null,
  cap: number,
): Promise<number> {
  return countTradesAfter(trx, { xactId: 'settled_xact_id', seq: 'settled_seq' }, after, cap);
}

/** The given trades if settled, in the shape `readSettledAfter` returns (their positions included). */
export async function findSettledTrades(
  db: Kysely<Database> | Transaction<Database>,
  ids: readonly string[],
): Promise<SettledTradeRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<Omit<SettledTradeRow, 'position'> & { xact_id: string; seq: string }>`
    select id, user_id, pair, direction, account_type, amount_cents, payout_pct, entry_price, entry_at_ms,
           accepted_at_ms, expiry_at_ms, status, exit_price, exit_at_ms, pnl_cents, settled_at_ms, reference_check,
           settled_xact_id::text as xact_id, settled_seq::text as seq
    from trades
    where id = any(${[...ids]}::uuid[]) and settled_seq is not null
    order by settled_xact_id, settled_seq`.execute(db);
  return rows.map(({ xact_id, seq, ...row }) => ({ ...row, position: { xactId: xact_id, seq } }));
}
