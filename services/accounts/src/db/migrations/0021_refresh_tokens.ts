import { sql, type Kysely } from 'kysely';

/**
 * Refresh tokens, stored only as SHA-256 hashes. Every login starts a family; each refresh marks
 * its token rotated and inserts the child. A rotated token presented again means it leaked (or two
 * clients share it), so the whole family is revoked: rows stay until they expire for that check.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table refresh_tokens (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      family_id uuid not null,
      parent_id uuid references refresh_tokens (id) on delete set null,
      token_hash text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      rotated_at timestamptz,
      revoked_at timestamptz,
      revoked_reason text,
      constraint refresh_tokens_hash unique (token_hash),
      constraint refresh_tokens_revoked_reason check (
        revoked_reason is null or revoked_reason in ('logout', 'reuse', 'password_reset')
      )
    )`.execute(db);
  await sql`create index refresh_tokens_family on refresh_tokens (family_id)`.execute(db);
  await sql`create index refresh_tokens_user on refresh_tokens (user_id)`.execute(db);
  await sql`create index refresh_tokens_expires on refresh_tokens (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table refresh_tokens`.execute(db);
}
