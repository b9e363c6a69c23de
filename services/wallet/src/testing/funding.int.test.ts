import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { isClearedForWithdrawal } from '../clearance/withdrawal-clearance';
import { getUserBalances, openUserAccounts } from '../ledger/ledger.repository';
import { verifyLedger } from '../ledger/verify';
import { clearForWithdrawals, fundUser } from './funding';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 4 });
});
afterAll(async () => {
  await database.drop();
});

async function openUser(): Promise<string> {
  const id = randomUUID();
  await sql`insert into users (id, email, name, password_hash)
            values (${id}, ${`${id}@example.test`}, 'Trader', 'x')`.execute(database.db);
  await openUserAccounts(database.db, id);
  return id;
}

describe('fundUser', () => {
  it('puts each amount on its account from the system account the real flow uses, and adds up', async () => {
    const id = await openUser();
    await fundUser(database.db, id, { realCents: 12_345, bonusCents: 500, demoCents: 100 });
    await fundUser(database.db, id, { realCents: 5 });
    expect(await getUserBalances(database.db, id)).toMatchObject({
      real: 12_350,
      bonus: 500,
      demo: 100,
    });
  });

  it('refuses fractions and negative amounts, moving nothing', async () => {
    const id = await openUser();
    await expect(fundUser(database.db, id, { realCents: 10.5 })).rejects.toThrow(RangeError);
    await expect(fundUser(database.db, id, { realCents: 100, bonusCents: -1 })).rejects.toThrow(RangeError);
    expect((await getUserBalances(database.db, id)).real).toBe(0);
  });

  it('leaves a ledger that verifies', async () => {
    const report = await verifyLedger(database.db);
    expect(report.violations).toEqual([]);
  });
});

describe('clearForWithdrawals', () => {
  it('clears the user as an approved verification does, and twice is once', async () => {
    const id = await openUser();
    expect(await isClearedForWithdrawal(database.db, id)).toBe(false);
    await clearForWithdrawals(database.db, id);
    await clearForWithdrawals(database.db, id);
    expect(await isClearedForWithdrawal(database.db, id)).toBe(true);
  });
});
