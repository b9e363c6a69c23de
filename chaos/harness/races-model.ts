/**
 * The sequential model the race scenarios compare against, written from DESIGN §3 and §4 rather
 * than taken from the services: what a settled trade returns and where it goes.
 */

export type TradeStatus = 'pending' | 'won' | 'lost' | 'draw' | 'void';

export interface ModelTrade {
  readonly direction: 'UP' | 'DOWN';
  readonly amountCents: number;
  readonly stakeCashCents: number;
  readonly stakeBonusCents: number;
  readonly payoutPct: number;
  readonly entryPrice: number;
  readonly exitPrice: number | null;
  readonly status: TradeStatus;
  readonly pnlCents: number | null;
}

/** The status the prices call for: void without an exit price, draw on an equal one. */
export function statusFromPrices(trade: ModelTrade): TradeStatus {
  if (trade.exitPrice === null) return 'void';
  if (trade.exitPrice === trade.entryPrice) return 'draw';
  return (trade.direction === 'UP') === trade.exitPrice > trade.entryPrice ? 'won' : 'lost';
}

/** Win P/L = amount × payout% rounded down to the cent; a loss costs the stake; draw and void 0. */
export function pnlOf(trade: ModelTrade): number {
  switch (trade.status) {
    case 'won':
      return Math.floor((trade.amountCents * Math.round(trade.payoutPct * 100)) / 10_000);
    case 'lost':
      return -trade.amountCents;
    case 'draw':
    case 'void':
      return 0;
    case 'pending':
      throw new Error('a pending trade has no P/L yet');
  }
}

/**
 * What goes back to the trader: nothing on a loss, else stake plus P/L, split between cash and
 * bonus in the proportion the stake was taken (cash rounded down), so bonus-funded winnings stay
 * bonus.
 */
export function returnOf(trade: ModelTrade): { toCashCents: number; toBonusCents: number } {
  if (trade.status === 'lost') return { toCashCents: 0, toBonusCents: 0 };
  const total = trade.amountCents + pnlOf(trade);
  const toCash = Math.floor((total * trade.stakeCashCents) / trade.amountCents);
  return { toCashCents: toCash, toBonusCents: total - toCash };
}

/** Sums `pick` over `items`. */
export function sum<T>(items: readonly T[], pick: (item: T) => number): number {
  return items.reduce((total, item) => total + pick(item), 0);
}
