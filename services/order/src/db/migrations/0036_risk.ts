import { sql, type Kysely } from 'kysely';

/**
 * Risk controls (README "Risk controls"), owned by the order service beside the trades they watch:
 *
 * - `risk_pairs`: per pair, the admin's settings (exposure caps per direction, payout skew, loss
 *   breaker) and the book of its open real trades per direction (count, stakes, potential profit),
 *   kept by the statements that open and settle trades, in their transactions. Placement locks the
 *   rows of its pairs, so two batches cannot both fit under a cap. The breaker's state is here too.
 * - `risk_house_pnl`: the house's real P/L per pair and minute, added to by settlement; the breaker
 *   and the Risk tab sum a window of it.
 * - `risk_settings`: the default caps per trader; `risk_trader_limits`: a trader's own lower caps.
 * - `risk_trader_scores`: each trader's toxicity score, recomputed by the scoring job.
 *
 * The book starts from the trades pending when this runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table risk_pairs (
      pair text primary key,
      exposure_cap_up_cents bigint check (exposure_cap_up_cents >= 0),
      exposure_cap_down_cents bigint check (exposure_cap_down_cents >= 0),
      skew_max_pct integer not null default 0 check (skew_max_pct between 0 and 50),
      skew_full_at_cents bigint not null default 100000 check (skew_full_at_cents > 0),
      loss_limit_cents bigint check (loss_limit_cents > 0),
      loss_window_min integer not null default 60 check (loss_window_min between 5 and 1440),
      up_open_trades integer not null default 0 check (up_open_trades >= 0),
      up_stake_cents bigint not null default 0 check (up_stake_cents >= 0),
      up_profit_cents bigint not null default 0 check (up_profit_cents >= 0),
      down_open_trades integer not null default 0 check (down_open_trades >= 0),
      down_stake_cents bigint not null default 0 check (down_stake_cents >= 0),
      down_profit_cents bigint not null default 0 check (down_profit_cents >= 0),
      suspended_at_ms bigint,
      suspended_reason text,
      resumed_at_ms bigint,
      check ((suspended_at_ms is null) = (suspended_reason is null))
    )`.execute(db);
  await sql`
    insert into risk_pairs (pair, up_open_trades, up_stake_cents, up_profit_cents,
                            down_open_trades, down_stake_cents, down_profit_cents)
    select pair,
           count(*) filter (where direction = 'UP'),
           coalesce(sum(amount_cents) filter (where direction = 'UP'), 0),
           coalesce(sum(amount_cents * round(payout_pct * 100)::bigint / 10000) filter (where direction = 'UP'), 0),
           count(*) filter (where direction = 'DOWN'),
           coalesce(sum(amount_cents) filter (where direction = 'DOWN'), 0),
           coalesce(sum(amount_cents * round(payout_pct * 100)::bigint / 10000) filter (where direction = 'DOWN'), 0)
    from trades where status = 'pending' and account_type = 'real'
    group by pair`.execute(db);
  await sql`
    create table risk_house_pnl (
      pair text not null,
      minute_ms bigint not null,
      pnl_cents bigint not null,
      primary key (pair, minute_ms)
    )`.execute(db);
  await sql`
    create table risk_settings (
      id boolean primary key default true check (id),
      trader_max_open_stake_cents bigint check (trader_max_open_stake_cents > 0),
      trader_max_open_trades integer check (trader_max_open_trades > 0)
    )`.execute(db);
  await sql`insert into risk_settings default values`.execute(db);
  await sql`
    create table risk_trader_limits (
      user_id uuid primary key,
      max_open_stake_cents bigint check (max_open_stake_cents > 0),
      max_open_trades integer check (max_open_trades > 0)
    )`.execute(db);
  await sql`
    create table risk_trader_scores (
      user_id uuid primary key,
      score integer not null check (score between 0 and 100),
      trades integer not null,
      wins integer not null,
      z_score double precision not null,
      after_move_pct double precision not null,
      profit_factor double precision,
      skill double precision not null,
      latency double precision not null,
      profit double precision not null,
      window_days integer not null,
      computed_at_ms bigint not null
    )`.execute(db);
  await sql`create index risk_trader_scores_score on risk_trader_scores (score desc, user_id)`.execute(db);
  // The open real trades of one user, for the per-trader caps placement checks under the user's locks.
  await sql`create index trades_user_open_real on trades (user_id) where status = 'pending' and account_type = 'real'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index trades_user_open_real`.execute(db);
  await sql`drop table risk_trader_scores, risk_trader_limits, risk_settings, risk_house_pnl, risk_pairs`.execute(
    db,
  );
}
