import { sql, type Kysely } from 'kysely';

/**
 * Failed sign-in attempts, counted here rather than in process memory so an account lock holds
 * across every gateway process. `subject` is the normalised email for password attempts (so an
 * unknown address is limited exactly like a real one and the answer reveals nothing) and the user
 * id for two-factor codes. Rows older than the lock window are pruned as attempts arrive.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table login_failures (
      id bigserial primary key,
      subject text not null,
      kind text not null,
      occurred_at timestamptz not null,
      constraint login_failures_kind check (kind in ('password', 'totp'))
    )`.execute(db);
  await sql`create index login_failures_subject on login_failures (subject, kind, occurred_at)`.execute(db);
  await sql`create index login_failures_occurred_at on login_failures (occurred_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table login_failures`.execute(db);
}
