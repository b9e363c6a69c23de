// lint-as: services/gateway/src/leaderboard/leaderboard.read-model.ts
// expect: updown/table-owner
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

// The leaderboard declares trades and users; the ledger is not among them.
export async function balances(db: Kysely<Database>): Promise<number> {
  const rows = await db.selectFrom('ledger_accounts').select('balance').execute();
  return rows.length;
}
