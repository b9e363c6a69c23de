import type { Generated } from 'kysely';
import type { Timestamp } from '@updown/runtime';

/**
 * Trades. Their migrations in `./migrations` are the source of truth; these interfaces mirror them
 * for kysely and add them to the runtime's `Database` (declaration merging), so every package's
 * queries see them.
 */

export interface TradesTable {
  id: string;
  user_id: string;
  pair: string;
  direction: 'UP' | 'DOWN';
  account_type: 'demo' | 'real';
  amount_cents: number;
  stake_cash_cents: number;
  stake_bonus_cents: number;
  payout_pct: number;
  duration_sec: number;
  entry_price: number;
  /** Unix epoch milliseconds, like every `_at_ms` column here. */
  entry_at_ms: number;
  entry_tick_id: number | null;
  accepted_at_ms: number;
  expiry_at_ms: number;
  status: Generated<'pending' | 'won' | 'lost' | 'draw' | 'void'>;
  exit_price: number | null;
  exit_at_ms: number | null;
  exit_tick_id: number | null;
  pnl_cents: number | null;
  turnover_cents: number | null;
  settled_at_ms: number | null;
  /** The rule that voided a void trade (`VoidReason`); null otherwise. */
  void_reason:
    'no_exit_tick' | 'exit_tick_too_old' | 'feeds_diverged_at_entry' | 'feeds_diverged_at_expiry' | null;
  /** Settlement's cross-check against the pair's reference feed (`ReferenceCheckRecord`); null without one. */
  reference_check: unknown;
  /** Publish position of `trades.settled.v1` (`xid8` and `bigint`; see migration 0033). */
  settled_xact_id: string | null;
  settled_seq: number | null;
  /** Publish position of `trades.opened.v1`, from column defaults (migration 0034). */
  opened_xact_id: Generated<string | null>;
  opened_seq: Generated<number | null>;
  idempotency_key: string | null;
  created_at: Timestamp;
}

/** Per pair: risk settings, the book of open real trades per direction, the breaker (migration 0036). */
export interface RiskPairsTable {
  pair: string;
  exposure_cap_up_cents: number | null;
  exposure_cap_down_cents: number | null;
  skew_max_pct: Generated<number>;
  skew_full_at_cents: Generated<number>;
  loss_limit_cents: number | null;
  loss_window_min: Generated<number>;
  up_open_trades: Generated<number>;
  up_stake_cents: Generated<number>;
  up_profit_cents: Generated<number>;
  down_open_trades: Generated<number>;
  down_stake_cents: Generated<number>;
  down_profit_cents: Generated<number>;
  suspended_at_ms: number | null;
  suspended_reason: string | null;
  resumed_at_ms: number | null;
}

export interface RiskHousePnlTable {
  pair: string;
  minute_ms: number;
  pnl_cents: number;
}

export interface RiskSettingsTable {
  id: Generated<boolean>;
  trader_max_open_stake_cents: number | null;
  trader_max_open_trades: number | null;
}

export interface RiskTraderLimitsTable {
  user_id: string;
  max_open_stake_cents: number | null;
  max_open_trades: number | null;
}

export interface RiskTraderScoresTable {
  user_id: string;
  score: number;
  trades: number;
  wins: number;
  z_score: number;
  after_move_pct: number;
  profit_factor: number | null;
  skill: number;
  latency: number;
  profit: number;
  window_days: number;
  computed_at_ms: number;
}

declare module '@updown/runtime' {
  interface Database {
    trades: TradesTable;
    risk_pairs: RiskPairsTable;
    risk_house_pnl: RiskHousePnlTable;
    risk_settings: RiskSettingsTable;
    risk_trader_limits: RiskTraderLimitsTable;
    risk_trader_scores: RiskTraderScoresTable;
  }
}
