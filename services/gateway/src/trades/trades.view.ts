import type { TradeRow } from '@updown/order';
import { receiptIdOf } from '@updown/settlement';
import { centsToDollars } from '../http/money';

/** Expiry in Unix seconds, rounded up so a countdown never reaches zero before the trade expires. */
export function expirySeconds(expiryMs: number): number {
  return Math.ceil(expiryMs / 1000);
}

export function tradeView(row: TradeRow) {
  return {
    id: row.id,
    pair: row.pair,
    direction: row.direction,
    amount: centsToDollars(row.amount_cents),
    entry_price: row.entry_price,
    exit_price: row.exit_price,
    payout_pct: row.payout_pct,
    status: row.status,
    pnl: row.pnl_cents === null ? null : centsToDollars(row.pnl_cents),
    created_at: row.created_at.toISOString(),
    expiry_ts: expirySeconds(row.expiry_at_ms),
    account_type: row.account_type,
    duration: row.duration_sec,
    expiry_at_ms: row.expiry_at_ms,
    settled_at_ms: row.settled_at_ms,
    void_reason: row.status === 'void' ? row.void_reason : null,
    receipt_id: row.status === 'pending' ? null : receiptIdOf(row.id),
  };
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
