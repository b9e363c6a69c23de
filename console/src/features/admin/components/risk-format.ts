import type { DirectionExposure, PairRisk } from '../api/get-risk-overview';
import type { ToxicityScore } from '../api/get-users';

/**
 * The Risk tab's amounts run from cents to millions (caps go up to $10,000,000), so they are
 * grouped by thousands, unlike the spec's other admin tables: `$1,234.00`, `-$12.50`.
 */
export function formatRiskDollars(amount: number): string {
  const grouped = Math.abs(amount).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return amount < 0 ? `-$${grouped}` : `$${grouped}`;
}

/** `+$12.00`, `-$3.50`, `$0.00`: the house's P/L, signed as the users' P&L is. */
export function formatSignedRiskDollars(amount: number): string {
  return amount > 0 ? `+${formatRiskDollars(amount)}` : formatRiskDollars(amount);
}

/** `$1,234.00 / $5,000.00 (24.7%)`, or `$1,234.00 / no cap`: what the house stands to lose against its cap. */
export function formatExposure(side: Pick<DirectionExposure, 'exposure' | 'cap' | 'used_pct'>): string {
  if (side.cap === null) return `${formatRiskDollars(side.exposure)} / no cap`;
  const used = side.used_pct === null ? '' : ` (${side.used_pct.toFixed(1)}%)`;
  return `${formatRiskDollars(side.exposure)} / ${formatRiskDollars(side.cap)}${used}`;
}

/** From this share of its cap a side's bar turns amber; at 100% red (the next trade is refused). */
export const EXPOSURE_WARN_PCT = 80;

export function exposureLevel(usedPct: number): 'ok' | 'warn' | 'full' {
  if (usedPct >= 100) return 'full';
  return usedPct >= EXPOSURE_WARN_PCT ? 'warn' : 'ok';
}

/** `3 open · $30.00 staked`. */
export function formatOpen(side: Pick<DirectionExposure, 'open_trades' | 'open_stake'>): string {
  return `${side.open_trades} open · ${formatRiskDollars(side.open_stake)} staked`;
}

/** `Breaker at -$100.00 over 60 min`, or that the pair has no loss breaker. */
export function formatBreaker(settings: PairRisk['settings']): string {
  if (settings.loss_limit === null) return 'No loss breaker';
  return `Breaker at ${formatRiskDollars(-settings.loss_limit)} over ${settings.loss_window_min} min`;
}

/** `1.85`; a trader without a loss has no profit factor. */
export function formatProfitFactor(profitFactor: number | null): string {
  return profitFactor === null ? '—' : profitFactor.toFixed(2);
}

/** What a score is made of, for its tooltip: `Skill 0.82 · Latency 0.10 · Profit 0.40 · 35 trades in 30 days`. */
export function toxicityBreakdown(toxicity: ToxicityScore): string {
  const { skill, latency, profit } = toxicity.components;
  return [
    `Skill ${skill.toFixed(2)}`,
    `Latency ${latency.toFixed(2)}`,
    `Profit ${profit.toFixed(2)}`,
    `${toxicity.trades} trades in ${toxicity.window_days} days`,
  ].join(' · ');
}

/** From 70 a score reads as toxic, from 40 as worth watching. */
export function toxicityClass(score: number): string {
  if (score >= 70) return 'text-down';
  return score >= 40 ? 'risk-text--warn' : 'muted';
}
