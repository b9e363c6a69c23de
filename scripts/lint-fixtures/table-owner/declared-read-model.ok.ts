// lint-as: services/gateway/src/leaderboard/leaderboard.read-model.ts
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

// A declared read model reading only the tables it declares (trades and users).
export async function namesOfTraders(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('trades')
    .innerJoin('users', 'users.id', 'trades.user_id')
    .select('users.name')
    .distinct()
    .execute();
  return rows.map((row) => row.name);
}
