// lint-as: services/wallet/src/bonus/lint-fixture.ts
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

export async function activeBonuses(db: Kysely<Database>, userId: string): Promise<number> {
  const rows = await db.selectFrom('bonuses').select('id').where('user_id', '=', userId).execute();
  return rows.length;
}
