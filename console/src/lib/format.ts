export { formatPrice, priceDecimals } from '@updown/schemas/market';

/** Dollars with two decimals: `formatMoney(10) === '10.00'`. */
export function formatMoney(amount: number): string {
  return amount.toFixed(2);
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

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** Time left until `expiryTs` (Unix seconds) as `00h 00m 00s`, never below zero. */
export function formatCountdown(expiryTs: number, nowMs: number): string {
  const left = Math.max(0, Math.floor(expiryTs - nowMs / 1000));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = left % 60;
  return `${twoDigits(hours)}h ${twoDigits(minutes)}m ${twoDigits(seconds)}s`;
}
