import { formatMoney } from '../../../lib/format';

/** Display currencies of the wallet page's balances (spec §9); amounts are stored in dollars. */
export const CURRENCIES = {
  USD: { rate: 1, symbol: '$' },
  INR: { rate: 83.12, symbol: '₹' },
} as const;

export type Currency = keyof typeof CURRENCIES;

/** Dollars converted and shown in `currency`: `formatCurrency(100, 'INR') === '₹8312.00'`. */
export function formatCurrency(dollars: number, currency: Currency): string {
  const { rate, symbol } = CURRENCIES[currency];
  return `${symbol}${formatMoney(dollars * rate)}`;
}

/** A signed dollar amount: `+$10.00`, `-$5.00`. */
export function formatSignedMoney(amount: number): string {
  return `${amount >= 0 ? '+' : '-'}$${formatMoney(Math.abs(amount))}`;
}

/** `trade_payout` → `trade payout`. */
export function transactionTypeLabel(type: string): string {
  return type.replaceAll('_', ' ');
}

/** Wagering done as a percentage of the turnover required, between 0 and 100. */
export function wageringPercent(progress: number, required: number): number {
  if (!(required > 0)) return 0;
  return Math.min(100, Math.max(0, (progress / required) * 100));
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString();
}
