import { sql, type Kysely } from 'kysely';

/**
 * Settlement's own tables (DESIGN §10: settlement owns receipts):
 *
 * - `trade_receipts`: one signed receipt per settled trade (docs/receipts.md). `body` is the
 *   receipt's canonical JSON exactly as signed, kept as text because its bytes are what the
 *   signature covers; the proof (signed checkpoints and chain segments) is assembled from the tick
 *   log when the receipt is read, so it is not stored twice.
 * - `receipt_backlog`: settled trades the issuer read but could not prove yet (no tick after the
 *   expiry stored, or no checkpoint over it), so one trade on a stalled feed holds back no other.
 * - `trade_disputes`: a trader's dispute of a settlement, with the replay's evidence, and the
 *   admin's resolution. One open dispute per trade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table trade_receipts (
      trade_id uuid primary key,
      receipt_id uuid not null unique,
      user_id uuid not null,
      pair text not null,
      body text not null,
      key_id text not null,
      signature bytea not null,
      entry_checkpoint bigint,
      exit_checkpoint bigint,
      issued_at_ms bigint not null,
      constraint trade_receipts_signature check (octet_length(signature) = 64)
    )`.execute(db);
  await sql`
    create table receipt_backlog (
      trade_id uuid primary key,
      settled_at_ms bigint not null
    )`.execute(db);
  await sql`
    create table trade_disputes (
      id uuid primary key,
      trade_id uuid not null,
      user_id uuid not null,
      reason text not null,
      status text not null default 'open',
      replay jsonb not null,
      correction_cents bigint,
      ledger_entry_id bigint,
      resolution_note text,
      resolved_by uuid,
      created_at_ms bigint not null,
      resolved_at_ms bigint,
      constraint trade_disputes_reason_length check (length(reason) between 1 and 500),
      constraint trade_disputes_status check (status in ('open', 'confirmed', 'corrected')),
      constraint trade_disputes_resolved check ((status = 'open') = (resolved_at_ms is null)),
      constraint trade_disputes_correction check ((status = 'corrected') = (correction_cents is not null))
    )`.execute(db);
  await sql`create unique index trade_disputes_one_open on trade_disputes (trade_id) where status = 'open'`.execute(
    db,
  );
  await sql`create index trade_disputes_user on trade_disputes (user_id, created_at_ms desc)`.execute(db);
  await sql`create index trade_disputes_status on trade_disputes (status, created_at_ms desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table trade_disputes`.execute(db);
  await sql`drop table receipt_backlog`.execute(db);
  await sql`drop table trade_receipts`.execute(db);
}
