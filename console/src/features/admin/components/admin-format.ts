import { formatMoney } from '../../../lib/format';

/** How many characters of a user id the request tables show before the ellipsis (spec §2). */
export const USER_ID_SHOWN_CHARS = 8;

/** `'3f2a9c1e-…'` style: the first 8 characters and an ellipsis, enough to tell users apart. */
export function shortUserId(id: string): string {
  return `${id.slice(0, USER_ID_SHOWN_CHARS)}…`;
}

/** `12.5` → `$12.50`. */
export function formatDollars(amount: number): string {
  return `$${formatMoney(amount)}`;
}

/** `12.5` → `+$12.50`, `-3` → `-$3.00`, `0` → `$0.00`: the sign carries the meaning in P&L. */
export function formatSignedDollars(amount: number): string {
  if (amount > 0) return `+${formatDollars(amount)}`;
  if (amount < 0) return `-${formatDollars(-amount)}`;
  return formatDollars(0);
}

/** The colour class of a profit or loss; zero stays neutral. */
export function pnlClass(amount: number): string {
  if (amount > 0) return 'text-up';
  if (amount < 0) return 'text-down';
  return 'muted';
}

/** A win rate of 50% or more counts as good (spec: coloured by that threshold). */
export const GOOD_WIN_RATE_PCT = 50;

/** `66.66` → `66.7%`. */
export function formatWinRate(winRatePct: number): string {
  return `${winRatePct.toFixed(1)}%`;
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString();
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString();
}
