import { sql, type Kysely } from 'kysely';

/**
 * What an account's owner is shown and what a sensitive action checks:
 * - `sessions`: one row per session (a refresh-token family): where and on what it signed in, when
 *   it was last renewed, and when and from which client its holder last proved the password (the
 *   step-up claim; a sign-in is one).
 * - `security_events`: the account's security activity (sign-ins, failure bursts, 2FA and
 *   password changes, sessions ended, a refresh token used twice), kept for the owner and admins.
 * - `refresh_tokens.client_binding`: the client a token was issued to (address prefix and user
 *   agent hash), which the reuse grace compares with the client that presents it again.
 * Sessions that existed before are filled in from their tokens, with no address or device.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sessions (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      address text,
      user_agent text,
      step_up_at timestamptz,
      step_up_binding text,
      constraint sessions_user_agent_length check (char_length(user_agent) <= 512),
      constraint sessions_address_length check (char_length(address) <= 64)
    )`.execute(db);
  await sql`create index sessions_user on sessions (user_id, last_seen_at desc)`.execute(db);
  await sql`create index sessions_last_seen on sessions (last_seen_at)`.execute(db);
  await sql`
    insert into sessions (id, user_id, created_at, last_seen_at)
    select family_id, min(user_id::text)::uuid, min(created_at), max(created_at)
    from refresh_tokens group by family_id`.execute(db);

  await sql`
    create table security_events (
      id bigint generated always as identity primary key,
      user_id uuid not null references users (id) on delete cascade,
      kind text not null,
      occurred_at timestamptz not null,
      session_id uuid,
      address text,
      user_agent text,
      constraint security_events_kind check (kind in (
        'sign_in', 'sign_in_failures', 'two_factor_enabled', 'two_factor_disabled',
        'password_changed', 'session_ended', 'all_sessions_ended', 'refresh_token_reused'
      )),
      constraint security_events_user_agent_length check (char_length(user_agent) <= 512),
      constraint security_events_address_length check (char_length(address) <= 64)
    )`.execute(db);
  await sql`create index security_events_user on security_events (user_id, id desc)`.execute(db);

  await sql`alter table refresh_tokens add column client_binding text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table refresh_tokens drop column client_binding`.execute(db);
  await sql`drop table security_events`.execute(db);
  await sql`drop table sessions`.execute(db);
}
