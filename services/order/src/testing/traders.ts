import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { openUserAccounts } from '@updown/wallet';
import { fundUser } from '@updown/wallet/testing';

/**
 * A new trader with their accounts open and `realCents` deposited on the real account: for tests
 * and measurements that place trades through the order service without going through sign-up.
 * Returns the user id.
 */
export async function fundedTrader(db: Kysely<Database>, realCents: number): Promise<string> {
  const id = randomUUID();
  await sql`insert into users (id, email, name, password_hash)
            values (${id}, ${`${id}@example.com`}, 'Trader', 'x')`.execute(db);
  await openUserAccounts(db, id);
  await fundUser(db, id, { realCents });
  return id;
}
