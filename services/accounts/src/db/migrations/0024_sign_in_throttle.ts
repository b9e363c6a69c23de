import { sql, type Kysely } from 'kysely';

/**
 * Sign-in throttling by account and address (README "Rate limits") in place of the account lock.
 *
 * - `login_failures.address`: the key of the client address a failure came from (`addressKey`:
 *   IPv4 whole, IPv6 by /64). The default lets a gateway of the previous version, still running
 *   while the new one starts, keep recording; its rows count for the account only.
 * - Indexes for the three counts: one account on one address, one address across accounts, one
 *   account across addresses (the existing `login_failures_subject`).
 * - `sign_in_addresses`: the addresses an account completed a sign-in from, so the per-account
 *   ceiling can ask only unknown addresses for the extra step.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table login_failures add column address text not null default ''`.execute(db);
  await sql`
    create index login_failures_pair on login_failures (subject, kind, address, occurred_at)`.execute(db);
  await sql`create index login_failures_address on login_failures (address, occurred_at)`.execute(db);
  await sql`
    create table sign_in_addresses (
      user_id uuid not null references users (id) on delete cascade,
      address text not null,
      last_sign_in_at timestamptz not null,
      primary key (user_id, address)
    )`.execute(db);
  await sql`create index sign_in_addresses_last on sign_in_addresses (last_sign_in_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sign_in_addresses`.execute(db);
  await sql`drop index login_failures_address`.execute(db);
  await sql`drop index login_failures_pair`.execute(db);
  await sql`alter table login_failures drop column address`.execute(db);
}
