import type { ColumnType, Generated } from 'kysely';

/**
 * Table types for the one PostgreSQL database every service shares. The migrations in
 * `./migrations` are the source of truth; these interfaces mirror them for kysely.
 * Money columns are integer cents (`bigint`), parsed to safe JavaScript integers by `pool.ts`.
 */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OutboxTable {
  id: Generated<number>;
  topic: string;
  key: string;
  event: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  published_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface LedgerAccountsTable {
  id: Generated<number>;
  code: string;
  owner_id: string | null;
  type: string;
  may_go_negative: Generated<boolean>;
  balance: Generated<number>;
  created_at: Timestamp;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  kind: string;
  idempotency_key: string;
  request_hash: string;
  ref: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface LedgerPostingsTable {
  id: Generated<number>;
  entry_id: number;
  account_id: number;
  amount: number;
  balance_after: number;
  created_at: Timestamp;
}

export interface UsersTable {
  id: string;
  /** Normalised: trimmed and lower case (the database checks it). */
  email: string;
  name: string;
  role: ColumnType<'user' | 'admin', 'user' | 'admin' | undefined, 'user' | 'admin'>;
  password_hash: string;
  google_sub: string | null;
  twofa_enabled: Generated<boolean>;
  twofa_secret: string | null;
  twofa_pending_secret: string | null;
  /** The last TOTP time step accepted, so a code is never accepted twice. */
  twofa_last_step: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  parent_id: string | null;
  /** SHA-256 of the opaque token, hex; the token itself is never stored. */
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  rotated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_reason: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  /** Normalised email for password attempts, user id for two-factor codes. */
  subject: string;
  kind: 'password' | 'totp';
  occurred_at: Timestamp;
}

export interface MarketPairsTable {
  symbol: string;
  display_name: string;
  active: Generated<boolean>;
  /** `numeric`, parsed to a JavaScript number by `pool.ts`. */
  payout_pct: ColumnType<number, number | undefined, number>;
  provider: Generated<string>;
  reference_price: number | null;
  sort_order: Generated<number>;
  created_at: Timestamp;
}

export interface MarketTicksTable {
  id: Generated<number>;
  pair: string;
  /** Unix epoch milliseconds. */
  ts: number;
  price: number;
}

export interface MarketCandlesTable {
  pair: string;
  timeframe_sec: number;
  /** Unix epoch seconds, a multiple of `timeframe_sec`. */
  bucket_start: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Tick volume: prices observed in the candle. */
  volume: Generated<number>;
}

export interface PlatformSettingsTable {
  id: Generated<boolean>;
  payout_pct: Generated<number>;
  require_deposit_approval: Generated<boolean>;
  max_stake_cents: Generated<number>;
  updated_at: Timestamp;
}

export interface BonusesTable {
  id: string;
  user_id: string;
  amount_cents: number;
  turnover_required_cents: number;
  turnover_cents: Generated<number>;
  status: Generated<'active' | 'completed' | 'forfeited' | 'expired'>;
  credited_at: Timestamp;
  expires_at: Timestamp;
  closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

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
  entry_ts: number;
  entry_tick_id: number | null;
  accepted_at: number;
  expiry_ts: number;
  status: Generated<'pending' | 'won' | 'lost' | 'draw' | 'void'>;
  exit_price: number | null;
  exit_ts: number | null;
  exit_tick_id: number | null;
  pnl_cents: number | null;
  turnover_cents: number | null;
  settled_at: number | null;
  idempotency_key: string | null;
  created_at: Timestamp;
}

/** A real deposit or a withdrawal awaiting (or past) an admin's decision. */
export interface PaymentRequestsTable {
  id: string;
  user_id: string;
  amount_cents: number;
  account_type: ColumnType<'real' | 'demo', 'real' | 'demo' | undefined, 'real' | 'demo'>;
  status: ColumnType<
    'pending' | 'approved' | 'rejected',
    'pending' | 'approved' | 'rejected' | undefined,
    'pending' | 'approved' | 'rejected'
  >;
  provider_ref: string | null;
  created_at: Timestamp;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  decided_by: string | null;
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AdminAuditTable {
  id: Generated<number>;
  actor_id: string;
  action: string;
  target: string;
  before: ColumnType<unknown, string | null | undefined, string | null>;
  after: ColumnType<unknown, string | null | undefined, string | null>;
  at: Timestamp;
}

export interface Database {
  outbox: OutboxTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  login_failures: LoginFailuresTable;
  market_pairs: MarketPairsTable;
  market_ticks: MarketTicksTable;
  market_candles: MarketCandlesTable;
  platform_settings: PlatformSettingsTable;
  bonuses: BonusesTable;
  trades: TradesTable;
  deposit_requests: PaymentRequestsTable;
  withdrawal_requests: PaymentRequestsTable;
  admin_audit: AdminAuditTable;
}
