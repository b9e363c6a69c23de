import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { accountCode, userAccountCode } from '../ledger/ledger.domain';
import { openUserAccounts, transfer } from '../ledger/ledger.repository';
import {
  claimRows,
  heldLockLevel,
  lockAccounts,
  lockActiveBonuses,
  lockWallets,
  LockOrderViolation,
} from './lock-protocol';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 10 });
});
afterAll(async () => {
  await database.drop();
});

async function newUser(): Promise<string> {
  const id = randomUUID();
  await openUserAccounts(database.db, id);
  return id;
}

function demoGrant(owner: string, cents: number) {
  return {
    kind: 'deposit',
    idempotencyKey: randomUUID(),
    postings: [
      { account: { system: 'demo_issuance' as const }, amountCents: -cents },
      { account: { owner, type: 'demo' as const }, amountCents: cents },
    ],
  };
}

describe('the lock protocol', () => {
  it('climbs wallet, claim, bonus, accounts and returns the balances it locked', async () => {
    const user = await newUser();
    await database.db.transaction().execute(async (trx) => {
      expect(heldLockLevel(trx)).toBeUndefined();
      await lockWallets(trx, [user]);
      await claimRows(trx, async () => undefined);
      await lockActiveBonuses(trx, [user]);
      const balances = await lockAccounts(trx, [
        userAccountCode(user, 'demo'),
        userAccountCode(user, 'real'),
      ]);
      expect(heldLockLevel(trx)).toBe('accounts');
      expect(balances.get(userAccountCode(user, 'demo'))).toBe(0);
    });
  });

  it('refuses a step down the ladder before asking PostgreSQL for anything', async () => {
    const user = await newUser();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await lockActiveBonuses(trx, [user]);
        await lockWallets(trx, [user]);
      }),
    ).rejects.toThrow(LockOrderViolation);
  });

  it('takes ledger accounts once per command', async () => {
    const user = await newUser();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await lockAccounts(trx, [userAccountCode(user, 'real')]);
        await lockAccounts(trx, [userAccountCode(user, 'bonus')]);
      }),
    ).rejects.toThrow(/locked once per command/);
  });

  it('refuses a posting to an account the command did not lock with the others', async () => {
    const user = await newUser();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await lockAccounts(trx, [userAccountCode(user, 'demo')]);
        await transfer(trx, demoGrant(user, 100));
      }),
    ).rejects.toThrow(/did not lock/);
  });

  it('lets a posting use accounts the command locked, and a second posting within them', async () => {
    const user = await newUser();
    await database.db.transaction().execute(async (trx) => {
      const first = demoGrant(user, 100);
      const second = demoGrant(user, 50);
      await lockAccounts(trx, [
        userAccountCode(user, 'demo'),
        accountCode({ system: 'demo_issuance' }, first.idempotencyKey),
        accountCode({ system: 'demo_issuance' }, second.idempotencyKey),
      ]);
      await transfer(trx, first);
      await transfer(trx, second);
    });
  });

  it('a second transfer to other accounts in the same command is refused without a lock taken first', async () => {
    const user = await newUser();
    const other = await newUser();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await transfer(trx, demoGrant(user, 100));
        await transfer(trx, demoGrant(other, 100));
      }),
    ).rejects.toThrow(LockOrderViolation);
  });

  it("serialises two commands on one user's wallet", async () => {
    const user = await newUser();
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = database.db.transaction().execute(async (trx) => {
      await lockWallets(trx, [user]);
      order.push('first locked');
      await held;
      order.push('first done');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = database.db.transaction().execute(async (trx) => {
      await lockWallets(trx, [user]);
      order.push('second locked');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(order).toEqual(['first locked']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first locked', 'first done', 'second locked']);
  });
});
