import { sql, type Kysely } from 'kysely';

/**
 * The postings' references to their entry and account are checked once per statement instead of
 * once per row. A foreign key runs a look-up and a `for key share` row lock on the referenced row
 * for every posting inserted: for the 25,000 postings of a 10,000-trade settlement that was about
 * half of the PostgreSQL CPU of the postings statement (740 ms of 1,480 ms against 370 ms for the
 * same statement with the set-based check below; bench/README.md, expiry-storm).
 *
 * What the foreign keys guaranteed still holds, enforced by the database:
 * - every inserted posting names an existing entry and an existing account: the statement-level
 *   trigger that already checks that each entry balances now also anti-joins the inserted rows'
 *   distinct entry and account ids against their tables (`foreign_key_violation`);
 * - a referenced row cannot disappear afterwards: entries were append-only already, accounts are
 *   now never deleted either, and `truncate` of any of the three tables is refused (the foreign
 *   keys made a truncate of entries or accounts fail; nothing truncates the ledger).
 * The lock a foreign key takes only protects against a concurrent delete, which cannot happen.
 * `verifyLedger` checks the same references over the whole ledger (`posting_orphaned`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ledger_postings
      drop constraint ledger_postings_entry_id_fkey,
      drop constraint ledger_postings_account_id_fkey`.execute(db);
  await sql`
    create or replace function ledger_postings_balanced() returns trigger language plpgsql as $$
    declare
      bad record;
    begin
      -- One pass over the entries of the statement: each must balance and exist. A left join
      -- probes the entries' primary key once per entry.
      select g.entry_id, g.total, e.id is null as missing into bad
        from (select entry_id, sum(amount) as total from inserted group by entry_id) g
        left join ledger_entries e on e.id = g.entry_id
        where g.total <> 0 or e.id is null
        limit 1;
      if found and bad.missing then
        raise exception 'ledger posting names entry %, which does not exist', bad.entry_id
          using errcode = 'foreign_key_violation';
      end if;
      if found then
        raise exception 'ledger entry % does not balance (postings sum to %)', bad.entry_id, bad.total
          using errcode = 'check_violation';
      end if;
      select g.account_id into bad
        from (select distinct account_id from inserted) g
        left join ledger_accounts a on a.id = g.account_id
        where a.id is null
        limit 1;
      if found then
        raise exception 'ledger posting names account %, which does not exist', bad.account_id
          using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function ledger_accounts_kept() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger accounts are never deleted' using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`
    create trigger ledger_accounts_kept before delete on ledger_accounts
      for each row execute function ledger_accounts_kept()`.execute(db);
  for (const table of ['ledger_accounts', 'ledger_entries', 'ledger_postings']) {
    await sql`
      create trigger ${sql.id(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
        for each statement execute function ledger_append_only()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['ledger_accounts', 'ledger_entries', 'ledger_postings']) {
    await sql`drop trigger ${sql.id(`${table}_no_truncate`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop trigger ledger_accounts_kept on ledger_accounts`.execute(db);
  await sql`drop function ledger_accounts_kept()`.execute(db);
  await sql`
    create or replace function ledger_postings_balanced() returns trigger language plpgsql as $$
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
    alter table ledger_postings
      add constraint ledger_postings_entry_id_fkey foreign key (entry_id) references ledger_entries (id),
      add constraint ledger_postings_account_id_fkey foreign key (account_id) references ledger_accounts (id)`.execute(
    db,
  );
}
