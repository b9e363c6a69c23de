import { sql, type Kysely } from 'kysely';

/**
 * The audit trail of admin changes: who did what to which target, with the state before and after.
 *
 * Databases migrated before each package kept its own migrations already have this table and its
 * index (from `0040_wallet`), so every statement here leaves them as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists admin_audit (
      id bigserial primary key,
      actor_id uuid not null references users (id),
      action text not null,
      target text not null,
      before jsonb,
      after jsonb,
      at timestamptz not null
    )`.execute(db);
  await sql`create index if not exists admin_audit_at on admin_audit (at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table admin_audit`.execute(db);
}
