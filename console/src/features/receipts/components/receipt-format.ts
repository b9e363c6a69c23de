// The settlement rule's limit on the exit tick's age (an older last price voids the trade), from
// the verifier's rules: the module settlement settles with.
import { EXIT_TICK_AGE_MS_MAX } from '@updown/verify';
import { formatDollars, formatSignedDollars } from '../../../lib/format';
import type { Dispute } from '../../../lib/disputes';
import type { Receipt } from '../api/get-receipt';

/** A trader may dispute a settlement for a day after it (the server refuses later ones). */
export const DISPUTE_WINDOW_MS = 24 * 3600 * 1000;

/** Integer cents of the receipt to dollars: `1000` → `$10.00`. */
export function formatCents(cents: number): string {
  return formatDollars(cents / 100);
}

/** `800` → `+$8.00`, `-1000` → `-$10.00`. */
export function formatSignedCents(cents: number): string {
  return formatSignedDollars(cents / 100);
}

/** Basis points of the payout as a percentage: `8000` → `80%`, `8250` → `82.5%`. */
export function formatPayout(basisPoints: number): string {
  return `${basisPoints / 100}%`;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** `HH:MM:SS.mmm` in UTC: ticks are milliseconds apart, and a receipt is read anywhere. */
export function formatClockMs(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(
    date.getUTCMilliseconds(),
    3,
  )}`;
}

/** `2026-01-05 12:01:00.123 UTC`: an instant of the receipt to the millisecond. */
export function formatInstantMs(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 10)} ${formatClockMs(ms)} UTC`;
}

/**
 * The settlement rule the receipt applied, in plain words with the prices as signed (decimal
 * strings, never re-rounded): `Exit 95012.5 above entry 95000.1: UP won`.
 */
export function ruleInWords(receipt: Receipt): string {
  const exit = receipt.exitTick?.price ?? '—';
  const entry = receipt.entryPrice;
  switch (receipt.rule) {
    case 'exit_above_entry':
      return `Exit ${exit} above entry ${entry}: ${receipt.direction} ${receipt.outcome}`;
    case 'exit_below_entry':
      return `Exit ${exit} below entry ${entry}: ${receipt.direction} ${receipt.outcome}`;
    case 'exit_equals_entry':
      return `Exit ${exit} equals entry ${entry}: draw, stake returned`;
    case 'no_exit_tick':
      return 'No price was stored before expiry: void, stake returned';
    case 'exit_tick_too_old': {
      const ageMs = receipt.exitTick ? receipt.expiryAtMs - receipt.exitTick.atMs : null;
      const age = ageMs === null ? '' : ` was ${(ageMs / 1000).toFixed(3)} s old,`;
      return `The last price before expiry${age} older than ${EXIT_TICK_AGE_MS_MAX / 1000} s: void, stake returned`;
    }
    case 'feeds_diverged_at_entry':
      return "The pair's price feeds disagreed at entry by more than its allowed spread: void, stake returned";
    case 'feeds_diverged_at_expiry':
      return "The pair's price feeds disagreed at expiry by more than its allowed spread: void, stake returned";
    default:
      // A rule newer than this console: its name and the outcome, rather than nothing.
      return `${receipt.rule.replaceAll('_', ' ')}: ${receipt.outcome}`;
  }
}

/** The colour of an outcome, as the trade history shows it. */
export function outcomeClass(outcome: Receipt['outcome']): string {
  if (outcome === 'won') return 'badge badge--up';
  if (outcome === 'lost') return 'badge badge--down';
  return 'badge badge--neutral';
}

/**
 * Whether the Dispute button shows: the trade is the viewer's own (an admin may read anyone's
 * receipt), it settled at most a day ago, and no dispute of it is waiting on an admin.
 */
export function canDispute(
  receipt: Pick<Receipt, 'tradeId' | 'userId' | 'settledAtMs'>,
  viewerId: string | undefined,
  disputes: readonly Pick<Dispute, 'trade_id' | 'status'>[],
  nowMs: number,
): boolean {
  if (viewerId === undefined || receipt.userId !== viewerId) return false;
  if (nowMs - receipt.settledAtMs > DISPUTE_WINDOW_MS) return false;
  return !disputes.some((dispute) => dispute.trade_id === receipt.tradeId && dispute.status === 'open');
}
