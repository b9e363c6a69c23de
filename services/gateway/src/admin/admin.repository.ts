import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

type Db = Kysely<Database> | Transaction<Database>;

const PAIR_COLUMNS = ['symbol', 'display_name', 'active', 'payout_pct', 'provider'] as const;

export async function lockPair(trx: Transaction<Database>, symbol: string) {
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
) {
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

export async function setPairActive(trx: Transaction<Database>, symbol: string, active: boolean) {
  return trx
    .updateTable('market_pairs')
    .set({ active })
    .where('symbol', '=', symbol)
    .returning(PAIR_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function hasPendingTrades(trx: Transaction<Database>, pair: string): Promise<boolean> {
  const row = await trx
    .selectFrom('trades')
    .select(sql<number>`1`.as('one'))
    .where('pair', '=', pair)
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deletePair(trx: Transaction<Database>, symbol: string): Promise<void> {
  await trx.deleteFrom('market_pairs').where('symbol', '=', symbol).execute();
}

export async function lockSettings(trx: Transaction<Database>) {
  return trx
    .selectFrom('platform_settings')
    .select(['payout_pct', 'require_deposit_approval'])
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** The new payout applies to trades placed from now on: placement copies the pair's payout onto the trade. */
export async function updateSettings(
  trx: Transaction<Database>,
  settings: { payoutPct: number; requireDepositApproval: boolean },
  now: number,
): Promise<void> {
  await trx
    .updateTable('platform_settings')
    .set({
      payout_pct: settings.payoutPct,
      require_deposit_approval: settings.requireDepositApproval,
      updated_at: new Date(now),
    })
    .execute();
  await trx
    .updateTable('market_pairs')
    .set({ payout_pct: settings.payoutPct })
    .where('payout_pct', '<>', settings.payoutPct)
    .execute();
}

export interface UserStatsRow {
  readonly user_id: string;
  readonly real_cents: number;
  readonly demo_cents: number;
  readonly total_trades: number;
  readonly wins: number;
  readonly pnl_cents: number;
}

/**
 * Balances and settled-real-trade figures for a page of users, in one statement (no query per
 * user). Void trades (stake refunded, no price) are not counted as trades.
 */
export async function userStats(db: Db, userIds: readonly string[]): Promise<Map<string, UserStatsRow>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await sql<UserStatsRow>`
    with ids as (select unnest(${[...userIds]}::uuid[]) as id),
    balances as (
      select owner_id,
             coalesce(sum(balance) filter (where type = 'real'), 0) as real_cents,
             coalesce(sum(balance) filter (where type = 'demo'), 0) as demo_cents
      from ledger_accounts where owner_id in (select id from ids) and type in ('real', 'demo')
      group by owner_id
    ),
    settled as (
      select user_id, count(*) as total_trades, count(*) filter (where status = 'won') as wins,
             coalesce(sum(pnl_cents), 0) as pnl_cents
      from trades
      where user_id in (select id from ids) and account_type = 'real' and status in ('won', 'lost', 'draw')
      group by user_id
    )
    select ids.id as user_id,
           coalesce(b.real_cents, 0)::bigint as real_cents, coalesce(b.demo_cents, 0)::bigint as demo_cents,
           coalesce(s.total_trades, 0)::bigint as total_trades, coalesce(s.wins, 0)::bigint as wins,
           coalesce(s.pnl_cents, 0)::bigint as pnl_cents
    from ids left join balances b on b.owner_id = ids.id left join settled s on s.user_id = ids.id`.execute(
    db,
  );
  return new Map(rows.map((row) => [row.user_id, row]));
}
