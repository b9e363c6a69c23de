import type { Trade } from '../api/get-trade-history';

const VOID_REASON_TEXT: Record<NonNullable<Trade['void_reason']>, string> = {
  no_exit_tick: 'Void: no price at expiry (stake returned)',
  exit_tick_too_old: 'Void: no price at expiry (stake returned)',
  feeds_diverged_at_entry: 'Void: price feeds disagreed at entry (stake returned)',
  feeds_diverged_at_expiry: 'Void: price feeds disagreed at expiry (stake returned)',
};

/**
 * Why a void trade was voided, in words for the trader; null for any other trade, and for a void
 * trade settled before the server kept reasons (or with a reason newer than this console).
 */
export function voidReasonText(trade: Pick<Trade, 'status' | 'void_reason'>): string | null {
  if (trade.status !== 'void' || !trade.void_reason) return null;
  return VOID_REASON_TEXT[trade.void_reason] ?? null;
}
