import { sql, type Kysely } from 'kysely';

/**
 * Bonus turnover counts both legs of a hedge as 0 (opposite directions, same user, pair and
 * expiry), so settling a trade looks up the user's other trades on that pair and expiry. Without
 * this index that look-up scans the user's whole trade history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index trades_user_pair_expiry on trades (user_id, pair, expiry_ts)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index trades_user_pair_expiry`.execute(db);
}
