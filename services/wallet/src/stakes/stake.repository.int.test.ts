import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { InsufficientFunds } from '../ledger/ledger.errors';
import { getUserBalances, openUserAccounts, transfer } from '../ledger/ledger.repository';
import { verifyLedger } from '../ledger/verify';
import { heldLockLevel, lockActiveBonuses, LockOrderViolation } from '../locks/lock-protocol';
import { BonusStakeCapExceeded } from './stake.errors';
import { holdStakes, lockStakeAccounts, type StakeHold } from './stake.repository';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 10 });
});
afterAll(async () => {
  await database.drop();
});

async function newUser(funds: { real?: number; bonus?: number; demo?: number } = {}): Promise<string> {
  const id = randomUUID();
  await openUserAccounts(database.db, id);
  for (const [type, cents] of Object.entries(funds) as ['real' | 'bonus' | 'demo', number][]) {
    await database.db.transaction().execute((trx) =>
      transfer(trx, {
        kind: 'deposit',
        idempotencyKey: `fund:${id}:${type}`,
        postings: [
          {
            account: {
              system:
                type === 'demo' ? 'demo_issuance' : type === 'real' ? 'payments_clearing' : 'bonus_pool',
            },
            amountCents: -cents,
          },
          { account: { owner: id, type }, amountCents: cents },
        ],
      }),
    );
  }
  return id;
}

const at = new Date(Date.UTC(2026, 0, 5, 12));
const hold = (userId: string, amountCents: number, more: Partial<StakeHold> = {}): StakeHold => ({
  tradeId: randomUUID(),
  userId,
  accountType: 'real',
  amountCents,
  activeBonusCents: undefined,
  occurredAt: at,
  ...more,
});

describe('lockStakeAccounts', () => {
  it("locks all six stake accounts of each user as the command's one account step, and returns their balances", async () => {
    const a = await newUser({ real: 1_000, demo: 50 });
    const b = await newUser({ bonus: 700 });
    await database.db.transaction().execute(async (trx) => {
      const locked = await lockStakeAccounts(trx, [a, b, a]);
      expect(heldLockLevel(trx)).toBe('accounts');
      expect(locked.get(a)).toEqual({
        real: 1_000,
        bonus: 0,
        demo: 50,
        real_in_play: 0,
        bonus_in_play: 0,
        demo_in_play: 0,
      });
      expect(locked.get(b)).toMatchObject({ real: 0, bonus: 700 });
      // Placement takes level 4 only: nothing may be locked after it but within it.
      await expect(lockActiveBonuses(trx, [a])).rejects.toThrow(LockOrderViolation);
    });
  });
});

describe('holdStakes', () => {
  it('splits a batch of stakes cash first, then bonus, each seeing the ones before it', async () => {
    const a = await newUser({ real: 1_000, bonus: 2_000 });
    const b = await newUser({ demo: 5_000 });
    const holds = [
      hold(a, 600),
      hold(a, 600),
      hold(b, 1_500, { accountType: 'demo' }),
      hold(a, 1_000, { activeBonusCents: 10_000 }),
    ];
    const held = await database.db.transaction().execute(async (trx) => {
      await lockStakeAccounts(trx, [a, b]);
      return holdStakes(trx, holds);
    });
    expect(held).toEqual([
      { tradeId: holds[0]!.tradeId, fromCashCents: 600, fromBonusCents: 0 },
      { tradeId: holds[1]!.tradeId, fromCashCents: 400, fromBonusCents: 200 },
      { tradeId: holds[2]!.tradeId, fromCashCents: 1_500, fromBonusCents: 0 },
      { tradeId: holds[3]!.tradeId, fromCashCents: 0, fromBonusCents: 1_000 },
    ]);
    expect(await getUserBalances(database.db, a)).toMatchObject({
      real: 0,
      bonus: 800,
      real_in_play: 1_000,
      bonus_in_play: 1_200,
    });
    expect(await getUserBalances(database.db, b)).toMatchObject({ demo: 3_500, demo_in_play: 1_500 });
    const entries = await database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'idempotency_key', 'ref', 'created_at'])
      .where(
        'idempotency_key',
        'in',
        holds.map((h) => `trade:${h.tradeId}:stake`),
      )
      .execute();
    expect(entries).toHaveLength(4);
    for (const entry of entries) {
      expect(entry.kind).toBe('trade_stake');
      expect(entry.created_at).toEqual(at);
    }
  });

  it('holds a single stake with one transfer, and a second call in the command sees the first', async () => {
    const a = await newUser({ real: 1_000, bonus: 1_000 });
    await database.db.transaction().execute(async (trx) => {
      await lockStakeAccounts(trx, [a]);
      expect(await holdStakes(trx, [hold(a, 800)])).toMatchObject([
        { fromCashCents: 800, fromBonusCents: 0 },
      ]);
      expect(await holdStakes(trx, [hold(a, 800)])).toMatchObject([
        { fromCashCents: 200, fromBonusCents: 600 },
      ]);
    });
    expect(await getUserBalances(database.db, a)).toMatchObject({ real: 0, bonus: 400 });
  });

  it('refuses a stake over the bonus stake cap, and a batch with one stake beyond the funds moves nothing', async () => {
    const a = await newUser({ real: 1_000, bonus: 1_000 });
    const before = await getUserBalances(database.db, a);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await lockStakeAccounts(trx, [a]);
        await holdStakes(trx, [hold(a, 2_001, { activeBonusCents: 10_000 })]);
      }),
    ).rejects.toThrow(BonusStakeCapExceeded);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await lockStakeAccounts(trx, [a]);
        await holdStakes(trx, [hold(a, 1_500), hold(a, 600)]);
      }),
    ).rejects.toThrow(InsufficientFunds);
    // Refused before any statement: the transaction is still usable and nothing was written.
    await database.db.transaction().execute(async (trx) => {
      await lockStakeAccounts(trx, [a]);
      await expect(holdStakes(trx, [hold(a, 2_001)])).rejects.toThrow('Insufficient balance');
      expect(await getUserBalances(database.db, a)).toEqual(before);
    });
    expect(await getUserBalances(database.db, a)).toEqual(before);
    expect((await verifyLedger(database.db)).violations).toEqual([]);
  });

  it('refuses to hold a stake for a user whose stake accounts the command did not lock', async () => {
    const a = await newUser({ real: 1_000 });
    const b = await newUser({ real: 1_000 });
    await expect(
      database.db.transaction().execute(async (trx) => {
        await lockStakeAccounts(trx, [a]);
        await holdStakes(trx, [hold(b, 100)]);
      }),
    ).rejects.toThrow(LockOrderViolation);
    await expect(database.db.transaction().execute((trx) => holdStakes(trx, [hold(a, 100)]))).rejects.toThrow(
      LockOrderViolation,
    );
  });
});
