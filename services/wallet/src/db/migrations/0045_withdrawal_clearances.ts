import { sql, type Kysely } from 'kysely';

/**
 * Withdrawal clearances: a user's identity was verified, so their real withdrawals may be requested
 * (README "Identity verification"). The wallet owns the gate; the gateway's verification decision
 * writes the row through `clearWithdrawals` in the same transaction as the approval. `source_id` is
 * the approved submission. No foreign key to the gateway's tables. A clearance is never deleted by
 * the product: withdrawals already requested under it stay explainable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table withdrawal_clearances (
      user_id uuid primary key,
      source_id uuid not null,
      cleared_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table withdrawal_clearances`.execute(db);
}
