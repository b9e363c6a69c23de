import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { Direction, Outcome } from './settlement.domain';

/** Queries of the settlement service. Each takes the database or a transaction first; the ones that lock take a `Transaction`. */

export interface PendingTradeRef {
  readonly id: string;
  readonly pair: string;
  readonly expiry_ts: number;
}

/** One page of pending trades in expiry order, after `after` (keyset paging, so each page is an index range). */
export async function loadPendingPage(
  db: Kysely<Database>,
  after: { expiryTs: number; id: string } | undefined,
  limit: number,
): Promise<PendingTradeRef[]> {
  let query = db
    .selectFrom('trades')
    .select(['id', 'pair', 'expiry_ts'])
    .where('status', '=', 'pending')
    .orderBy('expiry_ts')
    .orderBy('id')
    .limit(limit);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('expiry_ts', '>', after.expiryTs),
        eb.and([eb('expiry_ts', '=', after.expiryTs), eb('id', '>', after.id)]),
      ]),
    );
  }
  return query.execute();
}

/** The newest stored tick time of each pair asked for (pairs with no tick are absent). */
export async function latestTickTs(
  db: Kysely<Database>,
  pairs: readonly string[],
): Promise<Map<string, number>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await sql<{ pair: string; ts: number | null }>`
    select p.pair, (select max(m.ts) from market_ticks m where m.pair = p.pair) as ts
    from unnest(${[...pairs]}::text[]) as p (pair)`.execute(db);
  return new Map(rows.flatMap((r) => (r.ts === null ? [] : [[r.pair, r.ts] as const])));
}

/**
 * Pairs with pending trades that expired before `beforeTs`: the safety net for trades the schedule
 * never heard of (a lost event, a full schedule). Reads only the pending part of the index.
 */
export async function overduePendingPairs(
  db: Kysely<Database>,
  beforeTs: number,
  limit: number,
): Promise<{ pair: string; earliest: number }[]> {
  return db
    .selectFrom('trades')
    .select(['pair', (eb) => eb.fn.min<number>('expiry_ts').as('earliest')])
    .where('status', '=', 'pending')
    .where('expiry_ts', '<', beforeTs)
    .groupBy('pair')
    .orderBy('pair')
    .limit(limit)
    .execute();
}

export interface DueTradeRow {
  readonly id: string;
  readonly user_id: string;
  readonly pair: string;
  readonly direction: Direction;
  readonly account_type: 'demo' | 'real';
  readonly amount_cents: number;
  readonly stake_cash_cents: number;
  readonly stake_bonus_cents: number;
  readonly payout_pct: number;
  readonly duration_sec: number;
  readonly entry_price: number;
  readonly expiry_ts: number;
  readonly exit_tick_id: number | null;
  readonly exit_ts: number | null;
  readonly exit_price: number | null;
}

/**
 * Locks up to `limit` pending trades that are due (`expiry_ts < due_before` of their pair) and
 * finds each group's exit tick: the stored tick with the greatest `ts <= expiry_ts`, ties broken
 * by the highest id. Trades of one pair and expiry share one look-up, hence one exit tick.
 *
 * Rows are locked in (pair, expiry, id) order, so two settlers never deadlock on trades; one
 * waits for the other and then, re-reading `status = 'pending'`, skips what the other settled.
 */
export async function lockDueTrades(
  trx: Transaction<Database>,
  due: readonly { pair: string; dueBefore: number }[],
  limit: number,
): Promise<DueTradeRow[]> {
  const { rows } = await sql<DueTradeRow>`
    with due (pair, due_before) as (
      select * from unnest(${due.map((d) => d.pair)}::text[], ${due.map((d) => d.dueBefore)}::bigint[])
    ),
    picked as materialized (
      select t.id, t.user_id, t.pair, t.direction, t.account_type, t.amount_cents, t.stake_cash_cents,
             t.stake_bonus_cents, t.payout_pct, t.duration_sec, t.entry_price, t.expiry_ts
      from trades t join due d on d.pair = t.pair
      where t.status = 'pending' and t.expiry_ts < d.due_before
      order by t.pair, t.expiry_ts, t.id
      limit ${limit}
      for update of t
    ),
    exits as (
      select g.pair, g.expiry_ts, x.id, x.ts, x.price
      from (select distinct pair, expiry_ts from picked) g
      left join lateral (
        select m.id, m.ts, m.price from market_ticks m
        where m.pair = g.pair and m.ts <= g.expiry_ts
        order by m.ts desc, m.id desc
        limit 1
      ) x on true
    )
    select p.*, e.id as exit_tick_id, e.ts as exit_ts, e.price as exit_price
    from picked p join exits e on e.pair = p.pair and e.expiry_ts = p.expiry_ts
    order by p.pair, p.expiry_ts, p.id`.execute(trx);
  return rows;
}

export interface SettledUpdate {
  readonly id: string;
  readonly status: Outcome;
  readonly exitPrice: number | null;
  readonly exitTs: number | null;
  readonly exitTickId: number | null;
  readonly pnlCents: number;
}

/**
 * Moves the trades from pending to their result in one statement. `status = 'pending'` is the
 * guard that makes settlement happen once: only the ids returned changed, and only they may be
 * paid, counted toward turnover and announced. Turnover starts at 0; the bonus hook raises it.
 */
export async function markSettled(
  trx: Transaction<Database>,
  updates: readonly SettledUpdate[],
  settledAt: number,
): Promise<Set<string>> {
  if (updates.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    update trades t
    set status = u.status, exit_price = u.exit_price, exit_ts = u.exit_ts, exit_tick_id = u.exit_tick_id,
        pnl_cents = u.pnl_cents, settled_at = ${settledAt}, turnover_cents = 0
    from unnest(
      ${updates.map((u) => u.id)}::uuid[],
      ${updates.map((u) => u.status)}::text[],
      ${updates.map((u) => u.exitPrice)}::float8[],
      ${updates.map((u) => u.exitTs)}::bigint[],
      ${updates.map((u) => u.exitTickId)}::bigint[],
      ${updates.map((u) => u.pnlCents)}::bigint[]
    ) as u (id, status, exit_price, exit_ts, exit_tick_id, pnl_cents)
    where t.id = u.id and t.status = 'pending'
    returning t.id`.execute(trx);
  return new Set(rows.map((r) => r.id));
}
