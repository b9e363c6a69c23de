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

declare module '@updown/runtime' {
  interface Database {
    trades: TradesTable;
  }
}
