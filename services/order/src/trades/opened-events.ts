import { sql, type Transaction } from 'kysely';
import { createEvent, type EventOf } from '@updown/schemas';
import {
  committedAfter,
  derivedEventId,
  type Database,
  type OutboxSource,
  type OutboxSourcePosition,
} from '@updown/runtime';
import type { TradeRow } from './trades.repository';
import { countTradesAfter } from './publish-positions.repository';

/**
 * `trades.opened.v1`, published from the trades table itself: each inserted trade gets its
 * publish position from column defaults (migration 0034), and the outbox relay publishes the new
 * rows after its cursor with this source. Give it to every relay of a process that places trades
 * (the platform's, and the order service's when it runs alone).
 */
const OPENED_TRADES_SOURCE = 'trades.opened.v1';

/** The `producer` of the opened events. */
export const ORDER_PRODUCER = 'order';

type OpenedTradeRow = Pick<
  TradeRow,
  | 'id'
  | 'user_id'
  | 'pair'
  | 'direction'
  | 'amount_cents'
  | 'payout_pct'
  | 'entry_price'
  | 'entry_at_ms'
  | 'expiry_at_ms'
  | 'account_type'
  | 'accepted_at_ms'
>;

export function openedTradesSource(producer: string): OutboxSource {
  return {
    name: OPENED_TRADES_SOURCE,
    async read(trx, after, limit) {
      const rows = await readOpenedAfter(trx, after, limit);
      return rows.map((row) => ({
        position: row.position,
        message: { topic: 'trades.opened.v1', key: row.pair, event: openedEvent(row, producer) },
      }));
    },
    pending: countOpenedAfter,
  };
}

/**
 * The trades inserted after `after` in publish-position order, at most `limit`: only rows whose
 * placing transaction ended before this statement's snapshot (`committedAfter`). An index range of
 * `trades_opened_position`.
 */
export async function readOpenedAfter(
  trx: Transaction<Database>,
  after: OutboxSourcePosition | null,
  limit: number,
): Promise<(OpenedTradeRow & { readonly position: OutboxSourcePosition })[]> {
  const { rows } = await sql<OpenedTradeRow & { xact_id: string; seq: string }>`
    select id, user_id, pair, direction, amount_cents, payout_pct, entry_price, entry_at_ms, expiry_at_ms,
           account_type, accepted_at_ms, opened_xact_id::text as xact_id, opened_seq::text as seq
    from trades
    where opened_seq is not null
      and ${committedAfter({ xactId: 'opened_xact_id', seq: 'opened_seq' }, after)}
    order by opened_xact_id, opened_seq
    limit ${limit}`.execute(trx);
  return rows.map(({ xact_id, seq, ...row }) => ({ ...row, position: { xactId: xact_id, seq } }));
}

/** How many trades `readOpenedAfter` would return after `after` with no limit, counted up to `cap`. */
export function countOpenedAfter(
  trx: Transaction<Database>,
  after: OutboxSourcePosition | null,
  cap: number,
): Promise<number> {
  return countTradesAfter(trx, { xactId: 'opened_xact_id', seq: 'opened_seq' }, after, cap);
}

/** The event of a placed trade, the same whenever it is built: its id and time come from the trade. */
export function openedEvent(trade: OpenedTradeRow, producer: string): EventOf<'trades.opened.v1'> {
  return createEvent(
    'trades.opened.v1',
    {
      tradeId: trade.id,
      userId: trade.user_id,
      pair: trade.pair,
      direction: trade.direction,
      amountCents: trade.amount_cents,
      payoutPct: trade.payout_pct,
      entryPrice: trade.entry_price,
      entryAtMs: trade.entry_at_ms,
      expiryAtMs: trade.expiry_at_ms,
      accountType: trade.account_type,
      openedAtMs: trade.accepted_at_ms,
    },
    { producer, id: openedEventId(trade.id), occurredAt: trade.accepted_at_ms },
  );
}

/** One event id per trade: a trade opens once (`derivedEventId`). */
export function openedEventId(tradeId: string): string {
  return derivedEventId('trades.opened.v1', tradeId);
}
