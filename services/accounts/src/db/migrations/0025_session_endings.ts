import { sql, type Kysely } from 'kysely';

/**
 * Sessions can be ended by "log out everywhere" and by a password change, and every gateway reads
 * the sessions ended recently (to refuse their access tokens at once) with a query on `revoked_at`:
 * a partial index keeps that read to the few revoked rows, however many live tokens there are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table refresh_tokens drop constraint refresh_tokens_revoked_reason`.execute(db);
  await sql`
    alter table refresh_tokens add constraint refresh_tokens_revoked_reason check (
      revoked_reason is null
      or revoked_reason in ('logout', 'reuse', 'password_reset', 'logout_all', 'password_change')
    )`.execute(db);
  await sql`
    create index refresh_tokens_revoked on refresh_tokens (revoked_at, family_id)
    where revoked_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index refresh_tokens_revoked`.execute(db);
  await sql`alter table refresh_tokens drop constraint refresh_tokens_revoked_reason`.execute(db);
  await sql`
    alter table refresh_tokens add constraint refresh_tokens_revoked_reason check (
      revoked_reason is null or revoked_reason in ('logout', 'reuse', 'password_reset')
    )`.execute(db);
}
