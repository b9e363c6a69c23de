import { sql, type Kysely } from 'kysely';

/**
 * Why a void trade is void (`void_reason`, the receipt's rule), and, for a pair with a reference
 * feed, the cross-check settlement made at the trade's entry and expiry (`reference_check`: the
 * two feeds' prices, the allowed spread and the decision), kept with the trade as its evidence.
 * Both are written once, by the statement that settles the trade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table trades
      add column void_reason text,
      add column reference_check jsonb,
      add constraint trades_void_reason_only_void check (void_reason is null or status = 'void')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table trades
      drop constraint trades_void_reason_only_void,
      drop column reference_check,
      drop column void_reason`.execute(db);
}
