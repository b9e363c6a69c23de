import type { Trade } from '../api/get-trade-history';

export interface TradeStats {
  total: number;
  wins: number;
  losses: number;
  /** wins / total x 100; 0 without trades. */
  winRate: number;
}

/** Counts over a list of trades: every trade counts toward the total, pending ones included. */
export function tradeStats(trades: readonly Pick<Trade, 'status'>[]): TradeStats {
  const wins = trades.filter((trade) => trade.status === 'won').length;
  const losses = trades.filter((trade) => trade.status === 'lost').length;
  const total = trades.length;
  return { total, wins, losses, winRate: total === 0 ? 0 : (wins / total) * 100 };
}

/** `66.66…` → `66.7%`. */
export function formatWinRate(winRate: number): string {
  return `${winRate.toFixed(1)}%`;
}
