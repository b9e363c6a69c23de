// The money formats are shared with the trader's pages (dispute corrections).
export { formatDollars, formatSignedDollars } from '../../../lib/format';

/** How many characters of a user id the request tables show before the ellipsis (spec §2). */
export const USER_ID_SHOWN_CHARS = 8;

/** `'3f2a9c1e-…'` style: the first 8 characters and an ellipsis, enough to tell users apart. */
export function shortUserId(id: string): string {
  return `${id.slice(0, USER_ID_SHOWN_CHARS)}…`;
}

/** A trade's id, shortened as a user's is: the full id is in the cell's title. */
export const shortTradeId = shortUserId;

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
