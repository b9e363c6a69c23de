export { formatPrice, priceDecimals } from '@updown/schemas/market';

/** Dollars with two decimals: `formatMoney(10) === '10.00'`. */
export function formatMoney(amount: number): string {
  return amount.toFixed(2);
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
