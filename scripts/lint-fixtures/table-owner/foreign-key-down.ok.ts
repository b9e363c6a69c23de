// lint-as: services/order/src/db/migrations/9999_lint_fixture.ts
import { sql, type Kysely } from 'kysely';

// Order sits above accounts: its foreign key to users points down a floor.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table trades add column referred_by uuid references users (id)`.execute(db);
}
