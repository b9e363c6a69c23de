import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { executePrepared, type Database } from '@updown/runtime';
import type { AcceptedTrade } from './place-trade.domain';

/** Plain data-access functions for placement; each takes the database or a transaction first. */

export type TradeRow = Selectable<Database['trades']>;

export async function findTradeByIdempotencyKey(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
  idempotencyKey: string,
): Promise<TradeRow | undefined> {
  return db
    .selectFrom('trades')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * Locks the accounts a stake may come from and returns their balances. Holding these row locks
 * while deciding means two placements by one user see each other's stakes: the split between cash
 * and bonus is decided on balances that cannot move underneath it.
 */
export async function lockStakeBalances(
  trx: Transaction<Database>,
  userId: string,
): Promise<{ real: number; bonus: number; demo: number }> {
  const { rows } = await executePrepared(
    trx,
    trx
      .selectFrom('ledger_accounts')
      .select(['type', 'balance'])
      .where('owner_id', '=', userId)
      .where('type', 'in', ['real', 'bonus', 'demo'])
      .orderBy('id')
      .forUpdate(),
  );
  const balances = { real: 0, bonus: 0, demo: 0 };
  for (const row of rows) balances[row.type as keyof typeof balances] = row.balance;
  return balances;
}

export interface PlacementContext {
  readonly pair: { symbol: string; active: boolean; payout_pct: number } | undefined;
  readonly maxStakeCents: number;
  /** The credited amount of the user's active bonus, if one is active. */
  readonly activeBonusCents: number | undefined;
}

/**
 * What a placement decides on besides the balances: the pair, the platform's stake ceiling and the
 * user's active bonus, read with one prepared statement rather than three unnamed ones: each round
 * trip and each parse-and-plan costs more than these index probes themselves. Scalar subqueries
 * rather than a join keep it cheap to plan. Called after `lockStakeBalances`, so (under READ
 * COMMITTED) it sees everything committed before the lock was granted, as separate reads would.
 */
export async function loadPlacementContext(
  trx: Transaction<Database>,
  symbol: string,
  userId: string,
): Promise<PlacementContext> {
  const { rows } = await executePrepared(
    trx,
    sql<{
      max_stake_cents: number | null;
      pair_active: boolean | null;
      pair_payout_pct: number | null;
      bonus_cents: number | null;
    }>`
      select (select max_stake_cents from platform_settings) as max_stake_cents,
             (select active from market_pairs where symbol = ${symbol}) as pair_active,
             (select payout_pct from market_pairs where symbol = ${symbol}) as pair_payout_pct,
             (select amount_cents from bonuses where user_id = ${userId} and status = 'active' limit 1)
               as bonus_cents`.compile(trx),
  );
  const row = rows[0];
  // platform_settings is a singleton created by its migration; without it nothing can be placed.
  if (!row || row.max_stake_cents === null) throw new Error('platform_settings has no row');
  return {
    pair:
      row.pair_active === null || row.pair_payout_pct === null
        ? undefined
        : { symbol, active: row.pair_active, payout_pct: row.pair_payout_pct },
    maxStakeCents: row.max_stake_cents,
    activeBonusCents: row.bonus_cents ?? undefined,
  };
}

export async function insertTrade(
  trx: Transaction<Database>,
  row: { id: string; userId: string; idempotencyKey: string | null; trade: AcceptedTrade },
): Promise<TradeRow> {
  const { trade } = row;
  return trx
    .insertInto('trades')
    .values({
      id: row.id,
      user_id: row.userId,
      pair: trade.pair,
      direction: trade.direction,
      account_type: trade.accountType,
      amount_cents: trade.amountCents,
      stake_cash_cents: trade.stakeFromCashCents,
      stake_bonus_cents: trade.stakeFromBonusCents,
      payout_pct: trade.payoutPct,
      duration_sec: trade.durationSec,
      entry_price: trade.entryPrice,
      entry_ts: trade.entryTs,
      entry_tick_id: trade.entryTickId,
      accepted_at: trade.acceptedAt,
      expiry_ts: trade.expiryTs,
      idempotency_key: row.idempotencyKey,
      created_at: new Date(trade.acceptedAt),
      exit_price: null,
      exit_ts: null,
      exit_tick_id: null,
      pnl_cents: null,
      turnover_cents: null,
      settled_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
