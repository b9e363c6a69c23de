export { parseAmount } from '../../../lib/amount';

/** What a winning stake earns at this payout percentage, in dollars. */
export function potentialProfit(amount: number, payoutPct: number): number {
  return (amount * payoutPct) / 100;
}

export const QUICK_AMOUNTS = [10, 25, 50, 100, 250, 500] as const;

export const DURATIONS = [
  { label: '1m', seconds: 60 },
  { label: '2m', seconds: 120 },
  { label: '3m', seconds: 180 },
  { label: '4m', seconds: 240 },
  { label: '5m', seconds: 300 },
  { label: '15m', seconds: 900 },
  { label: '30m', seconds: 1800 },
  { label: '45m', seconds: 2700 },
  { label: '1h', seconds: 3600 },
] as const;
