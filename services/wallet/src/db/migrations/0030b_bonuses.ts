import { sql, type Kysely } from 'kysely';

/**
 * Bonuses: credited with a wagering requirement that trades count toward (`turnover_cents`), at most
 * one active per user, closed exactly once (completed, forfeited or expired).
 *
 * Databases migrated before each package kept its own migrations already have this table and its
 * indexes (from `0030_trades`), so every statement here leaves them as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists bonuses (
      id uuid primary key,
      user_id uuid not null references users (id),
      amount_cents bigint not null check (amount_cents > 0),
      turnover_required_cents bigint not null check (turnover_required_cents > 0),
      turnover_cents bigint not null default 0 check (turnover_cents >= 0),
      status text not null default 'active',
      credited_at timestamptz not null,
      expires_at timestamptz not null,
      closed_at timestamptz,
      constraint bonuses_status check (status in ('active', 'completed', 'forfeited', 'expired')),
      constraint bonuses_closed check ((status = 'active') = (closed_at is null))
    )`.execute(db);
  await sql`create unique index if not exists bonuses_one_active on bonuses (user_id) where status = 'active'`.execute(
    db,
  );
  await sql`create index if not exists bonuses_active_expiry on bonuses (expires_at) where status = 'active'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table bonuses`.execute(db);
}
