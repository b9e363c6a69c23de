import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { commandAccountCodes, userAccountCode, type TransferCommand } from '../ledger/ledger.domain';
import { InvalidTransfer } from '../ledger/ledger.errors';
import { transferBatch, type BatchTransferResult } from '../ledger/ledger.repository';
import { lockAccounts } from '../locks/lock-protocol';

/**
 * The wallet's side of settling trades: lock every account a batch of settlements will touch, in
 * one statement, then post the entries that close the trades. Both take the transaction first and
 * a whole batch at once.
 */

/** The entries that close a trade: its payout (won), the stake lost to the house, or a refund. */
export const SETTLEMENT_ENTRY_KINDS = ['trade_payout', 'trade_loss', 'trade_refund'] as const;
export type SettlementEntryKind = (typeof SETTLEMENT_ENTRY_KINDS)[number];

export type SettlementPosting = TransferCommand & {
  readonly kind: SettlementEntryKind;
  readonly occurredAt?: Date;
};

/**
 * Level 4 of the lock protocol for a settlement batch: the accounts of every entry (user accounts
 * and the house shards they post to: the entry's `systemShard` when it names one), plus `real` and `bonus` of each user holding an active bonus
 * (`bonusHolderIds`, from the level-3 lock), which a completing bonus converts between. One
 * statement, in account id order. Returns the balances locked.
 */
export async function lockSettlementAccounts(
  trx: Transaction<Database>,
  entries: readonly SettlementPosting[],
  bonusHolderIds: readonly string[],
): Promise<Map<string, number>> {
  const codes = entries.flatMap(commandAccountCodes);
  for (const userId of bonusHolderIds) {
    codes.push(userAccountCode(userId, 'real'), userAccountCode(userId, 'bonus'));
  }
  return lockAccounts(trx, codes);
}

/** Posts the settlement entries of a batch with `transferBatch`: a constant number of statements. */
export async function postSettlements(
  trx: Transaction<Database>,
  entries: readonly SettlementPosting[],
): Promise<BatchTransferResult> {
  for (const entry of entries) {
    if (!(SETTLEMENT_ENTRY_KINDS as readonly string[]).includes(entry.kind)) {
      throw new InvalidTransfer('kind', `${entry.kind} is not a settlement entry`);
    }
  }
  return transferBatch(trx, entries);
}

/**
 * The ledger entry ids of the given idempotency keys (a settlement's `trade:<id>:settle`, a
 * correction's key): what a receipt or a dispute names as the entries that moved the money.
 */
export async function entryIdsByKey(
  db: Kysely<Database> | Transaction<Database>,
  keys: readonly string[],
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['id', 'idempotency_key'])
    .where('idempotency_key', 'in', [...new Set(keys)])
    .execute();
  return new Map(rows.map((row) => [row.idempotency_key, row.id]));
}
