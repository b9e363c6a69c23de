import type { Kysely } from 'kysely';
import {
  lockDueTrades,
  markSettled,
  settleIntoBooks,
  type DueTradeRow,
  type SettledUpdate,
  type Suspension,
} from '@updown/order';
import type { Rule } from '@updown/verify/rules';
import type { Database } from '@updown/runtime';
import {
  applyBonusTurnover,
  claimRows,
  lockActiveBonuses,
  lockSettlementAccounts,
  ownerShard,
  postSettlements,
  SYSTEM_ACCOUNT_SHARDS,
  type CompletedBonus,
} from '@updown/wallet';
import {
  settle,
  settlementEntry,
  type Outcome,
  type SettlementReference,
  type SettlingTrade,
} from './settlement.domain';
import { decideTradeTurnover, turnoverByUser } from './trade-turnover';

/** Most trades one transaction settles: bounds its locks, its statements' size and its length. */
export const SETTLEMENT_BATCH_MAX = 10_000;

export interface SettleBatchCommand {
  /** Per pair, the instant before which its pending trades are due (see `dueBefore`). */
  readonly due: readonly { readonly pair: string; readonly dueBefore: number }[];
  readonly limit: number;
  /** Epoch ms from the clock: stored as `settled_at_ms`. */
  readonly now: number;
  /**
   * Only the trades of this share of the owners (`ownerShard(userId) % count === index`); all of
   * them when omitted. Batches of different shares lock disjoint trades, accounts and house
   * shards, so they run side by side without waiting for each other.
   */
  readonly partition?: SettlementPartition;
}

export interface SettlementPartition {
  readonly index: number;
  /** A divisor of the wallet's `SYSTEM_ACCOUNT_SHARDS` (16): 1, 2, 4, 8 or 16. */
  readonly count: number;
}

/** Whether `count` owner shares keep their house shards apart: it must divide the shard count. */
export function isPartitionCount(count: number): boolean {
  return Number.isInteger(count) && count >= 1 && SYSTEM_ACCOUNT_SHARDS % count === 0;
}

export interface SettledTrade {
  readonly tradeId: string;
  readonly pair: string;
  readonly status: Outcome;
  readonly expiryAtMs: number;
}

export interface SettleBatchResult {
  /** Due pending trades the batch locked; fewer than `limit` means none are left. */
  readonly selected: number;
  /** The trades this batch moved out of pending (and paid, counted and announced). */
  readonly settled: readonly SettledTrade[];
  readonly completedBonuses: readonly CompletedBonus[];
  /** Pairs whose loss breaker this batch tripped (README "Risk controls"). */
  readonly suspensions: readonly Suspension[];
}

/**
 * Settles one batch of due trades in one transaction and a constant number of statements:
 * lock the due trades with their groups' exit ticks; decide each in memory with the domain rules,
 * and its bonus turnover (one hedge look-up); move them out of pending with their result and
 * turnover and publish position (`where status = 'pending'`); one ledger write for all payouts;
 * the bonus rows' turnover. Either all of it commits or none, and the outbox relay then publishes
 * the settled trades' `trades.settled.v1` from their rows (`settledTradesSource`).
 *
 * Locks follow the wallet's protocol: the due trades (level 2, the batch's claim), the active
 * bonus rows of the owners of real trades (level 3), then in one statement every ledger account
 * the batch posts to, with `real` and `bonus` of each bonus holder for a completing bonus's
 * conversion (level 4), and last the risk books of the pairs of its real trades (level 5).
 */
export async function settleBatch(
  db: Kysely<Database>,
  command: SettleBatchCommand,
): Promise<SettleBatchResult> {
  if (!Number.isInteger(command.limit) || command.limit < 1 || command.limit > SETTLEMENT_BATCH_MAX) {
    throw new RangeError(`limit must be an integer from 1 to ${SETTLEMENT_BATCH_MAX}`);
  }
  const partition = command.partition ?? { index: 0, count: 1 };
  if (
    !isPartitionCount(partition.count) ||
    !Number.isInteger(partition.index) ||
    partition.index < 0 ||
    partition.index >= partition.count
  ) {
    throw new RangeError(
      `partition must be an index below a count that divides ${SYSTEM_ACCOUNT_SHARDS}, got ${partition.index}/${partition.count}`,
    );
  }
  if (command.due.length === 0) return { selected: 0, settled: [], completedBonuses: [], suspensions: [] };
  return db.transaction().execute(async (trx) => {
    const rows = await claimRows(trx, () => lockDueTrades(trx, command.due, command.limit, partition));
    const decided = rows.map((row) => {
      const trade = settlingTrade(row);
      const exit =
        row.exit_tick_id === null || row.exit_at_ms === null || row.exit_price === null
          ? undefined
          : { id: row.exit_tick_id, atMs: row.exit_at_ms, price: row.exit_price };
      return { row, trade, result: settle(trade, exit, settlementReference(row)) };
    });
    // Turnover is decided before the status is written, so each row is rewritten once.
    const turnover = await decideTradeTurnover(
      trx,
      decided.map(({ row }) => ({
        tradeId: row.id,
        userId: row.user_id,
        pair: row.pair,
        direction: row.direction,
        expiryAtMs: row.expiry_at_ms,
        durationSec: row.duration_sec,
        accountType: row.account_type,
        amountCents: row.amount_cents,
      })),
    );
    const transitioned = await markSettled(
      trx,
      decided.map(({ row, result }) => ({
        id: row.id,
        status: result.status,
        exitPrice: result.exit?.price ?? null,
        exitAtMs: result.exit?.atMs ?? null,
        exitTickId: result.exit?.id ?? null,
        pnlCents: result.pnlCents,
        turnoverCents: turnover.get(row.id) ?? 0,
        voidReason: result.status === 'void' ? voidReason(result.rule) : null,
        referenceCheck: result.referenceCheck,
      })),
      command.now,
    );
    const settled = decided.filter((d) => transitioned.has(d.row.id));
    const occurredAt = new Date(command.now);
    const bonuses = await lockActiveBonuses(
      trx,
      settled.filter(({ row }) => row.account_type === 'real').map(({ row }) => row.user_id),
    );
    // The house side goes to the owner's shard: the shards of one owner share are its own.
    const entries = settled.map(({ trade, result }) => ({
      ...settlementEntry(trade, result),
      occurredAt,
      systemShard: ownerShard(trade.userId),
    }));
    await lockSettlementAccounts(
      trx,
      entries,
      bonuses.map((b) => b.userId),
    );
    await postSettlements(trx, entries);
    const turnoverByUserId = turnoverByUser(
      settled.map(({ row }) => ({ tradeId: row.id, userId: row.user_id })),
      turnover,
    );
    const completedBonuses = await applyBonusTurnover(trx, bonuses, turnoverByUserId, command.now);
    // Last, under level 5 of the lock protocol: the settled real trades leave their pairs' books,
    // the house's P/L joins the pairs' minute, and a pair past its loss limit is suspended.
    const suspensions = await settleIntoBooks(
      trx,
      settled
        .filter(({ row }) => row.account_type === 'real')
        .map(({ row, result }) => ({
          pair: row.pair,
          direction: row.direction,
          amountCents: row.amount_cents,
          payoutPct: row.payout_pct,
          pnlCents: result.pnlCents,
        })),
      command.now,
    );
    // No outbox insert: `markSettled` wrote each trade's publish position, and the relay publishes
    // its `trades.settled.v1` from the row (`settledTradesSource`) once this commits.
    return {
      selected: rows.length,
      settled: settled.map(({ row, result }) => ({
        tradeId: row.id,
        pair: row.pair,
        status: result.status,
        expiryAtMs: row.expiry_at_ms,
      })),
      completedBonuses,
      suspensions,
    };
  });
}

/** The reference feed's word on a due trade, for a pair that has one. */
function settlementReference(row: DueTradeRow): SettlementReference | undefined {
  if (row.reference_provider === null || row.reference_spread_bps === null) return undefined;
  return {
    provider: row.reference_provider,
    spreadBps: row.reference_spread_bps,
    atEntry:
      row.entry_ref_price === null || row.entry_ref_at_ms === null
        ? null
        : { price: row.entry_ref_price, atMs: row.entry_ref_at_ms },
    atExpiry:
      row.expiry_ref_price === null || row.expiry_ref_at_ms === null
        ? null
        : { price: row.expiry_ref_price, atMs: row.expiry_ref_at_ms },
  };
}

function voidReason(rule: Rule): SettledUpdate['voidReason'] {
  return rule === 'no_exit_tick' ||
    rule === 'exit_tick_too_old' ||
    rule === 'feeds_diverged_at_entry' ||
    rule === 'feeds_diverged_at_expiry'
    ? rule
    : null;
}

function settlingTrade(row: DueTradeRow): SettlingTrade {
  return {
    tradeId: row.id,
    userId: row.user_id,
    direction: row.direction,
    accountType: row.account_type,
    amountCents: row.amount_cents,
    stakeCashCents: row.stake_cash_cents,
    stakeBonusCents: row.stake_bonus_cents,
    payoutPct: row.payout_pct,
    entryPrice: row.entry_price,
    expiryAtMs: row.expiry_at_ms,
  };
}
