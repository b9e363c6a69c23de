import { expirySeconds, publicTrade, type TradeRow } from '@updown/order';
import { receiptIdOf } from '@updown/settlement';
import { centsToDollars } from '@updown/schemas/api';

/**
 * The public trade, rendered by the order package's `publicTrade` (the order service renders the
 * same for placements it answers across processes), with the receipt id only settlement can name.
 */
export function tradeView(row: TradeRow) {
  return publicTrade(row, row.status === 'pending' ? null : receiptIdOf(row.id));
}

export function activeTradeView(row: TradeRow) {
  return {
    id: row.id,
    pair: row.pair,
    direction: row.direction,
    amount: centsToDollars(row.amount_cents),
    entry_price: row.entry_price,
    expiry_ts: expirySeconds(row.expiry_at_ms),
    status: 'pending' as const,
    payout_pct: row.payout_pct,
    account_type: row.account_type,
    created_at: row.created_at.toISOString(),
  };
}
