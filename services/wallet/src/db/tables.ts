import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '@updown/runtime';

/**
 * The wallet's tables: the ledger, the platform's money terms, bonuses and payment requests. Their
 * migrations in `./migrations` are the source of truth; these interfaces mirror them for kysely and
 * add them to the runtime's `Database` (declaration merging), so every package's queries see them.
 */

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
  closed_at: NullableTimestamp;
}

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
  decided_at: NullableTimestamp;
  decided_by: string | null;
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A charge recorded before the provider is called, and its result once known. */
export interface PaymentIntentsTable {
  id: string;
  request_id: string;
  user_id: string;
  amount_cents: number;
  kind: 'deposit' | 'deposit_approval';
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  provider_ref: ColumnType<string | null, string | null | undefined, string | null>;
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  decided_at: NullableTimestamp;
}

/** A user whose identity was verified: real withdrawals are open to them. */
export interface WithdrawalClearancesTable {
  user_id: string;
  /** The approved verification submission. */
  source_id: string;
  cleared_at: Timestamp;
}

declare module '@updown/runtime' {
  interface Database {
    ledger_accounts: LedgerAccountsTable;
    ledger_entries: LedgerEntriesTable;
    ledger_postings: LedgerPostingsTable;
    platform_settings: PlatformSettingsTable;
    bonuses: BonusesTable;
    deposit_requests: PaymentRequestsTable;
    withdrawal_requests: PaymentRequestsTable;
    payment_intents: PaymentIntentsTable;
    withdrawal_clearances: WithdrawalClearancesTable;
  }
}
