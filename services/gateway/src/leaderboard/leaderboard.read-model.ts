import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

/**
 * Read model of the daily leaderboard: it reads the order service's `trades` and the gateway's
 * `users` in one statement per request (rank the day's trades, then name the ranked users), where
 * the owners' functions would take a round trip each on a public, often-polled page. Read-only:
 * nothing here writes or locks. Listed in the gateway README with the tables it reads.
 */

export interface DailyRow {
  readonly rank: number;
  readonly user_id: string;
  readonly name: string;
  readonly pnl_cents: number;
  readonly total_trades: number;
  readonly wins: number;
}

/**
 * The day's settled real trades per user, ranked in one statement: P/L descending, then more
 * trades, then user id, so equal P/L always ranks the same way. Void trades (no price, stake
 * refunded) are not trades here. `trades_settled_at_ms` serves the day's range.
 */
function ranked(day: { startMs: number; endMs: number }) {
  return sql`
    select row_number() over (order by sum(t.pnl_cents) desc, count(*) desc, t.user_id) as rank,
           t.user_id, sum(t.pnl_cents) as pnl_cents, count(*) as total_trades,
           count(*) filter (where t.status = 'won') as wins
    from trades t
    where t.status in ('won', 'lost', 'draw') and t.account_type = 'real'
      and t.settled_at_ms >= ${day.startMs} and t.settled_at_ms < ${day.endMs}
    group by t.user_id`;
}

export async function dailyTop(
  db: Kysely<Database>,
  day: { startMs: number; endMs: number },
  limit: number,
): Promise<DailyRow[]> {
  const { rows } = await sql<DailyRow>`
    with ranked as (${ranked(day)})
    select r.rank, r.user_id, u.name, r.pnl_cents::bigint as pnl_cents, r.total_trades, r.wins
    from ranked r join users u on u.id = r.user_id
    where r.rank <= ${limit}
    order by r.rank`.execute(db);
  return rows;
}

/** One user's place on the day's board, or their name with no rank when they have no trades today. */
export async function dailyPosition(
  db: Kysely<Database>,
  day: { startMs: number; endMs: number },
  userId: string,
): Promise<(Omit<DailyRow, 'rank'> & { rank: number | null }) | undefined> {
  const { rows } = await sql<Omit<DailyRow, 'rank'> & { rank: number | null }>`
    with ranked as (${ranked(day)})
    select r.rank, u.id as user_id, u.name, coalesce(r.pnl_cents, 0)::bigint as pnl_cents,
           coalesce(r.total_trades, 0)::bigint as total_trades, coalesce(r.wins, 0)::bigint as wins
    from users u left join ranked r on r.user_id = u.id
    where u.id = ${userId}`.execute(db);
  return rows[0];
}
