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

export interface Database {
  outbox: OutboxTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
}
