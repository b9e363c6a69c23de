import { sql, type Kysely } from 'kysely';

/**
 * Accounts. The email is stored already normalised (trimmed, lower case) and the database refuses
 * anything else, so the unique index is the one place that decides whether an address is taken,
 * even when two registrations race. The password hash carries its own KDF parameters
 * (`scrypt$N$r$p$salt$hash`) so the cost can be raised later without a migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key,
      email text not null,
      name text not null,
      role text not null default 'user',
      password_hash text not null,
      google_sub text,
      twofa_enabled boolean not null default false,
      twofa_secret text,
      twofa_pending_secret text,
      twofa_last_step bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint users_role check (role in ('user', 'admin')),
      constraint users_email_normalised check (email = lower(btrim(email)) and length(email) between 3 and 254),
      constraint users_name_length check (length(name) between 1 and 100),
      constraint users_twofa_secret check (not twofa_enabled or twofa_secret is not null)
    )`.execute(db);
  await sql`create unique index users_email on users (email)`.execute(db);
  await sql`create unique index users_google_sub on users (google_sub) where google_sub is not null`.execute(
    db,
  );
  await sql`create index users_created_at on users (created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table users`.execute(db);
}
