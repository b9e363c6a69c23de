import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
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

export async function findPair(trx: Transaction<Database>, symbol: string) {
  return trx
    .selectFrom('market_pairs')
    .select(['symbol', 'active', 'payout_pct'])
    .where('symbol', '=', symbol)
    .executeTakeFirst();
}

export async function loadSettings(trx: Transaction<Database>) {
  return trx
    .selectFrom('platform_settings')
    .select(['max_stake_cents', 'payout_pct'])
    .executeTakeFirstOrThrow();
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
  const rows = await trx
    .selectFrom('ledger_accounts')
    .select(['type', 'balance'])
    .where('owner_id', '=', userId)
    .where('type', 'in', ['real', 'bonus', 'demo'])
    .orderBy('id')
    .forUpdate()
    .execute();
  const balances = { real: 0, bonus: 0, demo: 0 };
  for (const row of rows) balances[row.type as keyof typeof balances] = row.balance;
  return balances;
}

export async function activeBonusAmount(
  trx: Transaction<Database>,
  userId: string,
): Promise<number | undefined> {
  const row = await trx
    .selectFrom('bonuses')
    .select('amount_cents')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.amount_cents;
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
