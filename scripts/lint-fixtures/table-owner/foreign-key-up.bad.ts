// lint-as: services/accounts/src/db/migrations/9999_lint_fixture.ts
// expect: updown/table-owner
import { sql, type Kysely } from 'kysely';

// Accounts sit below order: a foreign key from them to trades would point up a floor.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table favourite_trades (trade_id uuid not null references trades (id))`.execute(db);
}
