// lint-as: services/gateway/src/admin/lint-fixture.routes.ts
// expect: no-restricted-syntax
import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

export async function suspendAll(db: Kysely<Database>): Promise<void> {
  await sql`begin`.execute(db);
  await db.updateTable('market_pairs').set({ active: false }).execute();
  await sql`commit`.execute(db);
}
