import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createEvent } from '@updown/schemas';
import { enqueueEvents, type Database, type OutboxEvent } from '@updown/runtime';
import { transferBatch } from '@updown/wallet';
import { applyBonusTurnover, lockActiveBonuses, type CompletedBonus } from './bonus-turnover';
import {
  settle,
  settlementEntry,
  type Outcome,
  type Settlement,
  type SettlingTrade,
} from './settlement.domain';
import { lockDueTrades, markSettled, type DueTradeRow } from './settlement.repository';

/** Most trades one transaction settles: bounds its locks, its statements' size and its length. */
export const SETTLEMENT_BATCH_MAX = 10_000;

export interface SettleBatchCommand {
  /** Per pair, the instant before which its pending trades are due (see `dueBefore`). */
  readonly due: readonly { readonly pair: string; readonly dueBefore: number }[];
  readonly limit: number;
  /** Epoch ms from the clock: stored as `settled_at`. */
  readonly now: number;
  readonly producer: string;
}

export interface SettledTrade {
  readonly tradeId: string;
  readonly pair: string;
  readonly status: Outcome;
  readonly expiryTs: number;
}

export interface SettleBatchResult {
  /** Due pending trades the batch locked; fewer than `limit` means none are left. */
  readonly selected: number;
  /** The trades this batch moved out of pending (and paid, counted and announced). */
  readonly settled: readonly SettledTrade[];
  readonly completedBonuses: readonly CompletedBonus[];
}

/**
 * Settles one batch of due trades in one transaction and a constant number of statements:
 * lock the due trades with their groups' exit ticks; decide each in memory with the domain rules;
 * move them out of pending (`where status = 'pending'`); one ledger write for all payouts; bonus
 * turnover; one outbox insert for all `trades.settled.v1` events. Either all of it commits or none.
 */
export async function settleBatch(
  db: Kysely<Database>,
  command: SettleBatchCommand,
): Promise<SettleBatchResult> {
  if (!Number.isInteger(command.limit) || command.limit < 1 || command.limit > SETTLEMENT_BATCH_MAX) {
    throw new RangeError(`limit must be an integer from 1 to ${SETTLEMENT_BATCH_MAX}`);
  }
  if (command.due.length === 0) return { selected: 0, settled: [], completedBonuses: [] };
  return db.transaction().execute(async (trx) => {
    const rows = await lockDueTrades(trx, command.due, command.limit);
    const decided = rows.map((row) => {
      const trade = settlingTrade(row);
      const exit =
        row.exit_tick_id === null || row.exit_ts === null || row.exit_price === null
          ? undefined
          : { id: row.exit_tick_id, ts: row.exit_ts, price: row.exit_price };
      return { row, trade, result: settle(trade, exit) };
    });
    const transitioned = await markSettled(
      trx,
      decided.map(({ row, result }) => ({
        id: row.id,
        status: result.status,
        exitPrice: result.exit?.price ?? null,
        exitTs: result.exit?.ts ?? null,
        exitTickId: result.exit?.id ?? null,
        pnlCents: result.pnlCents,
      })),
      command.now,
    );
    const settled = decided.filter((d) => transitioned.has(d.row.id));
    const occurredAt = new Date(command.now);
    // Bonus rows before ledger accounts, the order the wallet's bonus commands lock them in.
    await lockActiveBonuses(
      trx,
      settled.filter(({ row }) => row.account_type === 'real').map(({ row }) => row.user_id),
    );
    await transferBatch(
      trx,
      settled.map(({ trade, result }) => ({ ...settlementEntry(trade, result), occurredAt })),
    );
    const bonus = await applyBonusTurnover(
      trx,
      settled.map(({ row }) => ({
        tradeId: row.id,
        userId: row.user_id,
        pair: row.pair,
        direction: row.direction,
        expiryTs: row.expiry_ts,
        durationSec: row.duration_sec,
        accountType: row.account_type,
        amountCents: row.amount_cents,
      })),
      command.now,
    );
    await enqueueEvents(
      trx,
      settled.map(({ row, result }) => settledEvent(row, result, command.now, command.producer)),
    );
    return {
      selected: rows.length,
      settled: settled.map(({ row, result }) => ({
        tradeId: row.id,
        pair: row.pair,
        status: result.status,
        expiryTs: row.expiry_ts,
      })),
      completedBonuses: bonus.completed,
    };
  });
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
    expiryTs: row.expiry_ts,
  };
}

function settledEvent(row: DueTradeRow, result: Settlement, now: number, producer: string): OutboxEvent {
  return {
    topic: 'trades.settled.v1',
    key: row.pair,
    event: createEvent(
      'trades.settled.v1',
      {
        tradeId: row.id,
        userId: row.user_id,
        pair: row.pair,
        status: result.status,
        exitPrice: result.exit?.price ?? null,
        exitTs: result.exit?.ts ?? null,
        pnlCents: result.pnlCents,
        settledAt: now,
        accountType: row.account_type,
      },
      { producer, id: settledEventId(row.id), occurredAt: now },
    ),
  };
}

/**
 * The event id is derived from the trade, not random: a trade settles once, so it has one settled
 * event, and any copy a consumer sees (a relay retry, a bus redelivery) carries the same id.
 */
export function settledEventId(tradeId: string): string {
  const hex = createHash('sha256').update(`trades.settled.v1:${tradeId}`).digest('hex');
  // Shaped as a version 8 (custom) RFC 9562 UUID.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
