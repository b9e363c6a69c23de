// lint-as: services/gateway/src/admin/lint-fixture.routes.ts
// expect: no-restricted-syntax
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

export async function suspendAll(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('market_pairs').set({ active: false }).execute();
  });
}
