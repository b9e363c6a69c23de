import { formatMoney } from '../../../lib/format';
import type { Trade } from '../api/get-trade-history';

/**
 * What the chart draws for a trade, open or settled: the fields the active list carries, plus the
 * outcome once the history has it.
 */
export type ChartTrade = Pick<
  Trade,
  | 'id'
  | 'pair'
  | 'direction'
  | 'amount'
  | 'entry_price'
  | 'payout_pct'
  | 'created_at'
  | 'expiry_ts'
  | 'status'
> &
  Partial<Pick<Trade, 'pnl' | 'exit_price'>>;

type Priced = Pick<ChartTrade, 'direction' | 'amount' | 'entry_price' | 'payout_pct'>;

/**
 * The P/L the trade would settle with at `price`: the payout when the price is on the trade's side
 * of the entry, the whole stake lost when it is on the other side, and nothing on a draw.
 */
export function pnlAt(trade: Priced, price: number): number {
  const move = price - trade.entry_price;
  if (move === 0) return 0;
  const won = trade.direction === 'UP' ? move > 0 : move < 0;
  return won ? (trade.amount * trade.payout_pct) / 100 : -trade.amount;
}

/** The P/L at `price` as a percentage of the stake: +payout %, −100 % or 0. */
export function profitPctAt(trade: Priced, price: number): number {
  return (pnlAt(trade, price) / trade.amount) * 100;
}

/** How far the price has moved from the entry, in percent, whichever way the trade points. */
export function priceChangePct(entryPrice: number, price: number): number {
  return ((price - entryPrice) / entryPrice) * 100;
}

/** What a settled trade finally made: the server's figure, or the one its exit price implies. */
export function finalPnl(trade: ChartTrade): number | null {
  if (trade.pnl !== undefined && trade.pnl !== null) return trade.pnl;
  if (trade.exit_price !== undefined && trade.exit_price !== null) return pnlAt(trade, trade.exit_price);
  return null;
}

const RESULTS: Record<ChartTrade['status'], string> = {
  pending: 'Active',
  won: 'WIN',
  lost: 'LOSS',
  draw: 'DRAW',
  void: 'VOID',
};

/** The tooltip's result line: Active while open, WIN or LOSS once settled (DRAW and VOID refund). */
export function tradeResult(status: ChartTrade['status']): string {
  return RESULTS[status];
}

/** `8` → `+$8.00`, `-10` → `-$10.00`, `0` → `$0.00`. */
export function formatSignedMoney(amount: number): string {
  const text = formatMoney(Math.abs(amount));
  if (text === formatMoney(0)) return `$${text}`;
  return `${amount > 0 ? '+' : '-'}$${text}`;
}

/** `80` → `+80.00%`; a value that rounds to zero carries no sign (never `-0.00%`). */
export function formatSignedPct(value: number, decimals = 2): string {
  const text = Math.abs(value).toFixed(decimals);
  if (Number(text) === 0) return `${(0).toFixed(decimals)}%`;
  return `${value > 0 ? '+' : '-'}${text}%`;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** A wall-clock time in the viewer's zone, `HH:MM:SS`. */
export function formatClock(ms: number): string {
  const date = new Date(ms);
  return `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}:${twoDigits(date.getSeconds())}`;
}

/** When the trade was opened, as `HH:MM:SS`. */
export function entryClock(trade: Pick<ChartTrade, 'created_at'>): string {
  return formatClock(Date.parse(trade.created_at));
}

/** When the trade expires, as `HH:MM:SS`. */
export function expiryClock(trade: Pick<ChartTrade, 'expiry_ts'>): string {
  return formatClock(trade.expiry_ts * 1000);
}
