import { sql, type Kysely } from 'kysely';

/**
 * Trades. (Databases migrated before each package kept its own migrations also got the platform
 * settings and the bonuses here; those now live in the wallet's `0030a_platform_settings` and
 * `0030b_bonuses`, which are no-ops on such databases.)
 *
 * - Instants the engine computes with (`accepted_at`, `entry_ts`, `expiry_ts`, `exit_ts`) are Unix
 *   epoch milliseconds, the unit of ticks, so exit-price lookups compare like with like.
 * - A trade keeps the exact tick rows it entered and exited on (`entry_tick_id`, `exit_tick_id`).
 * - `status` moves from `pending` exactly once; settlement's `where status = 'pending'` guard and
 *   the check below keep a settled row complete.
 * - The stake's split between cash and bonus is stored so the payout can return in proportion.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table trades (
      id uuid primary key,
      user_id uuid not null references users (id),
      pair text not null,
      direction text not null,
      account_type text not null,
      amount_cents bigint not null,
      stake_cash_cents bigint not null,
      stake_bonus_cents bigint not null,
      payout_pct numeric(6, 2) not null,
      duration_sec integer not null,
      entry_price double precision not null,
      entry_ts bigint not null,
      entry_tick_id bigint,
      accepted_at bigint not null,
      expiry_ts bigint not null,
      status text not null default 'pending',
      exit_price double precision,
      exit_ts bigint,
      exit_tick_id bigint,
      pnl_cents bigint,
      turnover_cents bigint,
      settled_at bigint,
      idempotency_key text,
      created_at timestamptz not null default now(),
      constraint trades_direction check (direction in ('UP', 'DOWN')),
      constraint trades_account_type check (account_type in ('demo', 'real')),
      constraint trades_amount check (amount_cents > 0 and stake_cash_cents >= 0 and stake_bonus_cents >= 0
        and stake_cash_cents + stake_bonus_cents = amount_cents),
      constraint trades_status check (status in ('pending', 'won', 'lost', 'draw', 'void')),
      constraint trades_settled_complete check (
        (status = 'pending' and settled_at is null and pnl_cents is null)
        or (status <> 'pending' and settled_at is not null and pnl_cents is not null)),
      constraint trades_expiry check (expiry_ts > accepted_at)
    )`.execute(db);
  await sql`create unique index trades_idempotency on trades (user_id, idempotency_key) where idempotency_key is not null`.execute(
    db,
  );
  await sql`create index trades_pending_expiry on trades (pair, expiry_ts) where status = 'pending'`.execute(
    db,
  );
  await sql`create index trades_user_created on trades (user_id, created_at desc)`.execute(db);
  await sql`create index trades_settled_at on trades (settled_at) where status <> 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table trades`.execute(db);
}
