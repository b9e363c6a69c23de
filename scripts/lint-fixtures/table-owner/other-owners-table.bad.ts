// lint-as: services/wallet/src/bonus/lint-fixture.ts
// expect: updown/table-owner
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

// The wallet reading order's table: it must call order's functions instead.
export async function openStakes(db: Kysely<Database>, userId: string): Promise<number> {
  const rows = await db.selectFrom('trades').select('stake_cents').where('user_id', '=', userId).execute();
  return rows.length;
}
