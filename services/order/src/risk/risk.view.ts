import {
  centsToDollars,
  type DirectionExposure,
  type PairRisk,
  type ToxicityScore,
  type TraderLimits,
  type TraderRiskDefaults,
} from '@updown/schemas/api';
import { exposureCents, offeredPayoutPct, type PairBook, type PairRiskSettings } from './risk.domain';
import { bookOf, DEFAULT_PAIR_RISK, settingsOf, type RiskPairRow } from './risk.repository';
import type { TraderCaps } from './risk-settings.domain';
import type { ToxicityRow } from './toxicity.repository';

/**
 * The risk controls as the admin API shows them: dollars for cents, ISO times. The audit rows of
 * the risk changes record the same shapes, so a change reads in the log as it did on screen.
 */

const dollars = (value: number | null): number | null => (value === null ? null : centsToDollars(value));

export function settingsView(settings: PairRiskSettings) {
  return {
    exposure_cap_up: dollars(settings.capCents.UP),
    exposure_cap_down: dollars(settings.capCents.DOWN),
    skew_max_pct: settings.skewMaxPct,
    skew_full_at: centsToDollars(settings.skewFullAtCents),
    loss_limit: dollars(settings.lossLimitCents),
    loss_window_min: settings.lossWindowMin,
  };
}

function sideView(
  book: PairBook,
  settings: PairRiskSettings,
  payoutPct: number,
  direction: 'UP' | 'DOWN',
): DirectionExposure {
  const exposure = exposureCents(book, direction);
  const cap = settings.capCents[direction];
  return {
    open_trades: book[direction].openTrades,
    open_stake: centsToDollars(book[direction].stakeCents),
    potential_profit: centsToDollars(book[direction].profitCents),
    exposure: centsToDollars(exposure),
    cap: dollars(cap),
    used_pct:
      cap === null
        ? null
        : cap === 0
          ? exposure > 0
            ? 100
            : 0
          : Math.round((Math.max(0, exposure) / cap) * 1000) / 10,
    payout_pct: offeredPayoutPct(payoutPct, settings, book, direction),
  };
}

export function pairRiskView(
  pair: { symbol: string; payout_pct: number },
  row: RiskPairRow | undefined,
  pnl: { today: number; window: number },
): PairRisk {
  const settings = row ? settingsOf(row) : DEFAULT_PAIR_RISK.settings;
  const book = row ? bookOf(row) : DEFAULT_PAIR_RISK.book;
  const suspendedAt = row?.suspended_at_ms ?? null;
  return {
    symbol: pair.symbol,
    payout_pct: pair.payout_pct,
    settings: settingsView(settings),
    up: sideView(book, settings, pair.payout_pct, 'UP'),
    down: sideView(book, settings, pair.payout_pct, 'DOWN'),
    pnl_today: centsToDollars(pnl.today),
    pnl_window: centsToDollars(pnl.window),
    suspended: suspendedAt !== null,
    suspended_at: suspendedAt === null ? null : new Date(suspendedAt).toISOString(),
    suspended_reason: row?.suspended_reason ?? null,
  };
}

export function toxicityView(row: ToxicityRow): ToxicityScore {
  return {
    score: row.score,
    trades: row.trades,
    wins: row.wins,
    z_score: Math.round(row.z_score * 100) / 100,
    after_move_pct: Math.round(row.after_move_pct * 10) / 10,
    profit_factor: row.profit_factor === null ? null : Math.round(row.profit_factor * 100) / 100,
    components: {
      skill: Math.round(row.skill * 1000) / 1000,
      latency: Math.round(row.latency * 1000) / 1000,
      profit: Math.round(row.profit * 1000) / 1000,
    },
    window_days: row.window_days,
    computed_at: new Date(row.computed_at_ms).toISOString(),
  };
}

export function limitsView(caps: TraderCaps | undefined): TraderLimits | null {
  if (!caps) return null;
  return { max_open_stake: dollars(caps.openStakeCentsMax), max_open_trades: caps.openTradesMax };
}

export function defaultsView(caps: TraderCaps): TraderRiskDefaults {
  return { max_open_stake: dollars(caps.openStakeCentsMax), max_open_trades: caps.openTradesMax };
}

/** The start of the current UTC day: the Risk tab's "today". */
export function utcDayStart(nowMs: number): number {
  return Math.floor(nowMs / 86_400_000) * 86_400_000;
}
