import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { createUser } from '../auth/users.repository';

/**
 * A user row and nothing else, for a test of a floor above that needs only the foreign key to hold
 * (its wallet, if any, is the test's to open). The email is the id's; the password hash opens nothing.
 */
export async function insertTestUser(db: Kysely<Database>, id: string = randomUUID()): Promise<string> {
  await db.transaction().execute((trx) =>
    createUser(trx, {
      id,
      email: `${id}@example.test`,
      name: 'Trader',
      role: 'user',
      passwordHash: 'x',
      createdAt: new Date(0),
    }),
  );
  return id;
}
