import { centsToDollars, type Trade } from '@updown/schemas/api';
import type { TradeRow } from '../trades/trades.repository';

/** Expiry in Unix seconds, rounded up so a countdown never reaches zero before the trade expires. */
export function expirySeconds(expiryMs: number): number {
  return Math.ceil(expiryMs / 1000);
}

/**
 * A trade as `POST /api/trades/place` and the trade reads show it (schema `Trade`). It lives in the
 * order package, the lower of the two, because the order service renders it for the gateway to pass
 * through unchanged when they run apart, and the gateway renders it with this same function in one
 * process, so both layouts answer the same bytes. Dollars here are the public API's, from the
 * schemas' `centsToDollars`, the one conversion out of cents.
 *
 * The receipt id is derived by the settlement package, which the order package cannot import; a
 * pending trade has none, so the order service renders pending trades only (see order-app.ts).
 */
export function publicTrade(row: TradeRow, receiptId: string | null): Trade {
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
    receipt_id: receiptId,
  };
}
