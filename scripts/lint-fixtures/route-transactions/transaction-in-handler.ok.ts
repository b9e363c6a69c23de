// lint-as: services/price-ingest/src/pairs/lint-fixture.handler.ts
import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

export async function suspendAll(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select 1`.execute(trx);
    await trx.updateTable('market_pairs').set({ active: false }).execute();
  });
}
