import { formatMoney } from '../../../lib/format';

/** Spec §9: 60 and above is good, 50 to 59 a warning, below 50 bad. */
export function winRateTone(winRate: number): 'good' | 'warning' | 'bad' {
  if (winRate >= 60) return 'good';
  if (winRate >= 50) return 'warning';
  return 'bad';
}

/** P&L with its sign: `+12.50`, `-3.00`, `0.00`. */
export function formatSignedMoney(amount: number): string {
  return `${amount > 0 ? '+' : amount < 0 ? '-' : ''}$${formatMoney(Math.abs(amount))}`;
}

const TROPHIES: Record<number, string> = { 1: '🏆', 2: '🥈', 3: '🥉' };

/** Ranks 1 to 3 get a trophy or medal; the rest read `#n`; an unranked trader reads `--`. */
export function rankLabel(rank: number | null): { icon: string | null; text: string } {
  if (rank === null) return { icon: null, text: '--' };
  const icon = TROPHIES[rank];
  return icon ? { icon, text: `#${rank}` } : { icon: null, text: `#${rank}` };
}
