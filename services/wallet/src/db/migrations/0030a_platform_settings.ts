import { sql, type Kysely } from 'kysely';

/**
 * The platform's money terms: the default payout, the stake ceiling and whether real deposits wait
 * for an admin. One row, created with the defaults.
 *
 * Databases migrated before each package kept its own migrations already have this table and its
 * row (from `0030_trades`), so every statement here leaves an existing table and row as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists platform_settings (
      id boolean primary key default true,
      payout_pct numeric(6, 2) not null default 80,
      require_deposit_approval boolean not null default false,
      max_stake_cents bigint not null default 500000,
      updated_at timestamptz not null default now(),
      constraint platform_settings_singleton check (id),
      constraint platform_settings_payout check (payout_pct >= 1 and payout_pct <= 100),
      constraint platform_settings_max_stake check (max_stake_cents >= 100)
    )`.execute(db);
  await sql`insert into platform_settings default values on conflict (id) do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table platform_settings`.execute(db);
}
