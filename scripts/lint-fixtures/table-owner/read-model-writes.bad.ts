// lint-as: services/gateway/src/leaderboard/leaderboard.read-model.ts
// expect: updown/table-owner
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

// A declared read model reading its declared tables, but writing one.
export async function hideUser(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable('users').set({ name: 'Hidden' }).where('id', '=', userId).execute();
}
