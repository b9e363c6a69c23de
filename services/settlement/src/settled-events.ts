import { createEvent, type EventOf } from '@updown/schemas';
import { countSettledAfter, readSettledAfter, type SettledTradeRow } from '@updown/order';
import { derivedEventId, type OutboxSource } from '@updown/runtime';
import { receiptIdOf } from './receipts/receipt-id';

/**
 * `trades.settled.v1`, published from the trades table itself: the statement that settles a trade
 * writes its publish position (order's `markSettled`), and the outbox relay publishes the settled
 * rows after its cursor with this source. Give it to every relay of a process that runs
 * settlement (the platform's, and the settlement service's when it runs alone).
 */
const SETTLED_TRADES_SOURCE = 'trades.settled.v1';

/** The `producer` of the settled events. */
export const SETTLEMENT_PRODUCER = 'settlement';

export function settledTradesSource(producer: string): OutboxSource {
  return {
    name: SETTLED_TRADES_SOURCE,
    async read(trx, after, limit) {
      const rows = await readSettledAfter(trx, after, limit);
      return rows.map((row) => ({
        position: row.position,
        message: { topic: 'trades.settled.v1', key: row.pair, event: settledEvent(row, producer) },
      }));
    },
    pending: countSettledAfter,
  };
}

/** The event of a settled trade, the same whenever it is built: its id and time come from the trade. */
export function settledEvent(row: SettledTradeRow, producer: string): EventOf<'trades.settled.v1'> {
  return createEvent(
    'trades.settled.v1',
    {
      tradeId: row.id,
      userId: row.user_id,
      pair: row.pair,
      status: row.status,
      exitPrice: row.exit_price,
      exitAtMs: row.exit_at_ms,
      pnlCents: row.pnl_cents,
      settledAtMs: row.settled_at_ms,
      accountType: row.account_type,
      receiptId: receiptIdOf(row.id),
    },
    { producer, id: settledEventId(row.id), occurredAt: row.settled_at_ms },
  );
}

/** One event id per trade: a trade settles once (`derivedEventId`). */
export function settledEventId(tradeId: string): string {
  return derivedEventId('trades.settled.v1', tradeId);
}
