import type { ColumnType } from 'kysely';

/**
 * Table types for the one PostgreSQL database every service shares. Each package owns its tables:
 * it keeps their migrations in its `src/db/migrations` (the source of truth) and their kysely
 * types in its `src/db/tables.ts`, which adds them to `Database` below by declaration merging
 * (`declare module '@updown/runtime' { interface Database { ... } }`). The runtime owns the outbox
 * relay's cursors. Money columns are integer cents (`bigint`), parsed to safe JavaScript integers
 * by `pool.ts`.
 */

/** A `timestamptz` column: read as a `Date`, written as a `Date` or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A nullable `timestamptz` column. */
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

export interface OutboxCursorsTable {
  source: string;
  /** `xid8`, read and written as a decimal string. */
  xact_id: string;
  /** `bigint`, as a decimal string: positions are compared by PostgreSQL, never by JavaScript. */
  seq: string;
  updated_at: Timestamp;
}

// The package that owns a table adds it here; see the comment at the top of this file.
export interface Database {
  outbox_cursors: OutboxCursorsTable;
}
