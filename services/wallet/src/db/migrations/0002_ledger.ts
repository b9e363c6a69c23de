import { sql, type Kysely } from 'kysely';

/** How many rows each system (house, clearing, pool) account is spread over; see DESIGN §2 "Hot accounts". */
export const SYSTEM_ACCOUNT_SHARDS = 16;

export const SYSTEM_ACCOUNT_TYPES = [
  'house_real',
  'house_demo',
  'payments_clearing',
  'bonus_pool',
  'demo_issuance',
] as const;

/**
 * The double-entry ledger. Invariants the database itself enforces:
 * - a user account's balance never goes below zero (check constraint);
 * - every journal entry's postings sum to zero (statement-level trigger over the inserted rows);
 * - entries and postings are append-only (no update, no delete);
 * - one entry per idempotency key (unique index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ledger_accounts (
      id bigserial primary key,
      code text not null unique,
      owner_id uuid,
      type text not null,
      may_go_negative boolean not null default false,
      balance bigint not null default 0,
      created_at timestamptz not null default now(),
      constraint ledger_accounts_non_negative check (may_go_negative or balance >= 0)
    )`.execute(db);
  await sql`create index ledger_accounts_owner on ledger_accounts (owner_id) where owner_id is not null`.execute(
    db,
  );

  await sql`
    create table ledger_entries (
      id bigserial primary key,
      kind text not null,
      idempotency_key text not null,
      request_hash text not null,
      ref jsonb,
      created_at timestamptz not null default now(),
      constraint ledger_entries_idempotency_key unique (idempotency_key)
    )`.execute(db);

  await sql`
    create table ledger_postings (
      id bigserial primary key,
      entry_id bigint not null references ledger_entries (id),
      account_id bigint not null references ledger_accounts (id),
      amount bigint not null check (amount <> 0),
      balance_after bigint not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index ledger_postings_account on ledger_postings (account_id, id)`.execute(db);
  await sql`create index ledger_postings_entry on ledger_postings (entry_id)`.execute(db);

  // All postings of one entry are inserted by one statement, so the check runs once per statement
  // over the inserted rows instead of once per row.
  await sql`
    create function ledger_postings_balanced() returns trigger language plpgsql as $$
    declare
      bad record;
    begin
      select entry_id, sum(amount) as total into bad
        from inserted group by entry_id having sum(amount) <> 0 limit 1;
      if found then
        raise exception 'ledger entry % does not balance (postings sum to %)', bad.entry_id, bad.total
          using errcode = 'check_violation';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger ledger_postings_balanced after insert on ledger_postings
      referencing new table as inserted
      for each statement execute function ledger_postings_balanced()`.execute(db);

  await sql`
    create function ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception '% is append-only', tg_table_name using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  for (const table of ['ledger_entries', 'ledger_postings']) {
    await sql`
      create trigger ${sql.id(`${table}_append_only`)} before update or delete on ${sql.table(table)}
        for each row execute function ledger_append_only()`.execute(db);
  }

  for (const type of SYSTEM_ACCOUNT_TYPES) {
    await sql`
      insert into ledger_accounts (code, type, may_go_negative)
      select ${type} || ':' || lpad(shard::text, 2, '0'), ${type}, true
      from generate_series(0, ${SYSTEM_ACCOUNT_SHARDS - 1}) as shard`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ledger_postings`.execute(db);
  await sql`drop table ledger_entries`.execute(db);
  await sql`drop table ledger_accounts`.execute(db);
  await sql`drop function ledger_postings_balanced()`.execute(db);
  await sql`drop function ledger_append_only()`.execute(db);
}
