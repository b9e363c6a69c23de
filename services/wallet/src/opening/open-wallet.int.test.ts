import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances, listUserTransactions } from '../ledger/ledger.repository';
import { verifyLedger } from '../ledger/verify';
import { DEMO_GRANT_CENTS, openWallet } from './open-wallet';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 4 });
});
afterAll(async () => {
  await database.drop();
});

/** A user row as accounts' `createUser` leaves it, in the transaction the wallet then opens in. */
async function userWithWallet(times = 1): Promise<string> {
  const id = randomUUID();
  await database.db.transaction().execute(async (trx) => {
    await sql`insert into users (id, email, name, password_hash)
              values (${id}, ${`${id}@example.test`}, 'Trader', 'x')`.execute(trx);
    for (let i = 0; i < times; i++) await openWallet(trx, id, new Date('2026-12-07T10:00:00Z'));
  });
  return id;
}

describe('openWallet', () => {
  it('opens every account at zero but demo, which holds the demo grant posted from demo issuance', async () => {
    const id = await userWithWallet();
    expect(DEMO_GRANT_CENTS).toBe(1_000_000);
    expect(await getUserBalances(database.db, id)).toMatchObject({
      real: 0,
      bonus: 0,
      demo: DEMO_GRANT_CENTS,
      real_in_play: 0,
      demo_in_play: 0,
    });
    const history = await listUserTransactions(database.db, id, { limit: 10 });
    expect(history.map((t) => [t.type, t.accountType, t.amountCents])).toEqual([
      ['demo_grant', 'demo', DEMO_GRANT_CENTS],
    ]);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('grants once however often it runs for one user', async () => {
    const id = await userWithWallet(2);
    expect((await getUserBalances(database.db, id)).demo).toBe(DEMO_GRANT_CENTS);
    expect(await listUserTransactions(database.db, id, { limit: 10 })).toHaveLength(1);
  });
});
