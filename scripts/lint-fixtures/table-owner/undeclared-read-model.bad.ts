// lint-as: services/gateway/src/stats/lint-fixture.read-model.ts
// expect: updown/table-owner
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

// A read model the gateway's package.json does not declare, with the tables it reads.
export async function traderCount(db: Kysely<Database>): Promise<number> {
  const rows = await db.selectFrom('trades').select('user_id').distinct().execute();
  return rows.length;
}
