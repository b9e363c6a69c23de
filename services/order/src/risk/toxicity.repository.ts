import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { tickAtOrBeforeSql } from '@updown/price-ingest';
import type { RiskTraderScoresTable } from '../db/tables';
import {
  MOVE_LOOKBACK_MS,
  priorMoveBps,
  TOXICITY_TRADES_MAX,
  TOXICITY_WINDOW_DAYS,
  toxicityOf,
  type ScoredTrade,
} from './toxicity.domain';

/**
 * The stored toxicity scores (`risk_trader_scores`): the scoring job's refresh and the reads of
 * the Risk tab and the users list. Each function takes the database first.
 */

export type ToxicityRow = Readonly<RiskTraderScoresTable>;

const DAY_MS = 86_400_000;
/** Traders scored per page: a page reads at most this × `TOXICITY_TRADES_MAX` trades into memory. */
export const TOXICITY_USERS_PER_PAGE = 200;
/** Most rows a read returns or user ids it takes. */
export const TOXICITY_LIST_MAX = 1_000;

interface WindowTradeRow {
  readonly user_id: string;
  readonly direction: 'UP' | 'DOWN';
  readonly amount_cents: number;
  readonly payout_pct: number;
  readonly status: 'won' | 'lost';
  readonly pnl_cents: number;
  readonly entry_price: number;
  readonly prior_price: number | null;
}

/**
 * Rescores every trader with settled real won/lost trades in the window (settled from `nowMs` −
 * `TOXICITY_WINDOW_DAYS` to `nowMs`) and deletes the scores of the others. Traders go by pages of
 * `TOXICITY_USERS_PER_PAGE` in user id order: one statement reads a page's trades, one upserts its
 * scores. A row is only replaced by a computation at the same or a later `nowMs`, so a late
 * overlapping run cannot put older scores back; the final delete removes every row this run did
 * not write, i.e. the traders with nothing in its window.
 */
export async function refreshToxicityScores(
  db: Kysely<Database>,
  nowMs: number,
): Promise<{ scored: number }> {
  const sinceMs = nowMs - TOXICITY_WINDOW_DAYS * DAY_MS;
  const { rows: users } = await sql<{ user_id: string }>`
    select distinct user_id from trades
    where status in ('won', 'lost') and account_type = 'real'
      and settled_at_ms >= ${sinceMs} and settled_at_ms <= ${nowMs}
    order by user_id`.execute(db);
  for (let i = 0; i < users.length; i += TOXICITY_USERS_PER_PAGE) {
    const page = users.slice(i, i + TOXICITY_USERS_PER_PAGE).map((u) => u.user_id);
    const trades = await readWindowTrades(db, page, sinceMs, nowMs);
    await upsertScores(db, page, trades, nowMs);
  }
  await sql`delete from risk_trader_scores where computed_at_ms < ${nowMs}`.execute(db);
  return { scored: users.length };
}

/**
 * The given users' most recent `TOXICITY_TRADES_MAX` won/lost real trades settled in the window,
 * each with the price of its pair's tick at or before `MOVE_LOOKBACK_MS` before its acceptance
 * (price-ingest's look-up, one index probe per picked trade). The trades are picked first, so the
 * look-up runs only for the ones scored.
 */
async function readWindowTrades(
  db: Kysely<Database>,
  userIds: readonly string[],
  sinceMs: number,
  nowMs: number,
): Promise<Map<string, ScoredTrade[]>> {
  const { rows } = await sql<WindowTradeRow>`
    with picked as materialized (
      select * from (
        select t.user_id, t.pair, t.direction, t.amount_cents, t.payout_pct, t.status, t.pnl_cents,
               t.entry_price, t.accepted_at_ms,
               row_number() over (partition by t.user_id order by t.settled_at_ms desc, t.id desc) as recency
        from trades t
        where t.user_id = any(${[...userIds]}::uuid[]) and t.status in ('won', 'lost') and t.account_type = 'real'
          and t.settled_at_ms >= ${sinceMs} and t.settled_at_ms <= ${nowMs}
      ) ranked
      where recency <= ${TOXICITY_TRADES_MAX}
    )
    select p.user_id, p.direction, p.amount_cents, p.payout_pct, p.status, p.pnl_cents, p.entry_price,
           prior.price as prior_price
    from picked p
    left join lateral (
      ${tickAtOrBeforeSql(sql.raw('p.pair'), sql`p.accepted_at_ms - ${sql.lit(MOVE_LOOKBACK_MS)}::bigint`)}
    ) prior on true`.execute(db);
  const byUser = new Map<string, ScoredTrade[]>();
  for (const row of rows) {
    const trades = byUser.get(row.user_id) ?? [];
    trades.push({
      stakeCents: row.amount_cents,
      payoutPct: row.payout_pct,
      status: row.status,
      pnlCents: row.pnl_cents,
      direction: row.direction,
      priorMoveBps: priorMoveBps(row.entry_price, row.prior_price),
    });
    byUser.set(row.user_id, trades);
  }
  return byUser;
}

/** Scores a page of users and writes them in one statement (a user without trades scores 0). */
async function upsertScores(
  db: Kysely<Database>,
  userIds: readonly string[],
  trades: ReadonlyMap<string, readonly ScoredTrade[]>,
  nowMs: number,
): Promise<void> {
  const scores = userIds.map((id) => toxicityOf(trades.get(id) ?? []));
  await sql`
    insert into risk_trader_scores (user_id, score, trades, wins, z_score, after_move_pct, profit_factor,
                                    skill, latency, profit, window_days, computed_at_ms)
    select s.user_id, s.score, s.trades, s.wins, s.z_score, s.after_move_pct, s.profit_factor,
           s.skill, s.latency, s.profit, ${TOXICITY_WINDOW_DAYS}, ${nowMs}
    from unnest(
      ${[...userIds]}::uuid[],
      ${scores.map((s) => s.score)}::int[],
      ${scores.map((s) => s.trades)}::int[],
      ${scores.map((s) => s.wins)}::int[],
      ${scores.map((s) => s.zScore)}::float8[],
      ${scores.map((s) => s.afterMovePct)}::float8[],
      ${scores.map((s) => s.profitFactor)}::float8[],
      ${scores.map((s) => s.skill)}::float8[],
      ${scores.map((s) => s.latency)}::float8[],
      ${scores.map((s) => s.profit)}::float8[]
    ) as s (user_id, score, trades, wins, z_score, after_move_pct, profit_factor, skill, latency, profit)
    on conflict (user_id) do update
    set score = excluded.score, trades = excluded.trades, wins = excluded.wins, z_score = excluded.z_score,
        after_move_pct = excluded.after_move_pct, profit_factor = excluded.profit_factor,
        skill = excluded.skill, latency = excluded.latency, profit = excluded.profit,
        window_days = excluded.window_days, computed_at_ms = excluded.computed_at_ms
    where risk_trader_scores.computed_at_ms <= excluded.computed_at_ms`.execute(db);
}

function assertListSize(name: string, n: number): void {
  if (!Number.isInteger(n) || n < 0 || n > TOXICITY_LIST_MAX) {
    throw new RangeError(`${name} must be an integer from 0 to ${TOXICITY_LIST_MAX}, got ${n}`);
  }
}

/** The `limit` highest scores, ties in user id order (an index range of `risk_trader_scores_score`). */
export async function listTopToxicity(db: Kysely<Database>, limit: number): Promise<ToxicityRow[]> {
  assertListSize('limit', limit);
  return db
    .selectFrom('risk_trader_scores')
    .selectAll()
    .orderBy('score', 'desc')
    .orderBy('user_id')
    .limit(limit)
    .execute();
}

/** The scores of the given users, keyed by the id as the caller spelled it; unscored users are absent. */
export async function toxicityByUser(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, ToxicityRow>> {
  assertListSize('userIds.length', userIds.length);
  if (userIds.length === 0) return new Map();
  const { rows } = await sql<ToxicityRow & { key: string }>`
    select u.key, s.*
    from unnest(${[...userIds]}::text[]) as u (key)
    join risk_trader_scores s on s.user_id = u.key::uuid`.execute(db);
  return new Map(rows.map(({ key, ...row }) => [key, row]));
}
