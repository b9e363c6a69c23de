import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { transfer } from '@updown/wallet';

/** Set-up: `dollars` of real cash for the user, posted from the payments clearing account as a deposit would. */
export async function fundReal(db: Kysely<Database>, userId: string, dollars: number): Promise<void> {
  if (dollars <= 0) return;
  await db.transaction().execute((trx) =>
    transfer(trx, {
      kind: 'deposit',
      idempotencyKey: randomUUID(),
      postings: [
        { account: { system: 'payments_clearing' }, amount: -dollars * 100 },
        { account: { owner: userId, type: 'real' }, amount: dollars * 100 },
      ],
    }),
  );
}
