import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { accountCode, userAccountCode } from '../ledger/ledger.domain';
import { getUserBalances, openUserAccounts, transfer } from '../ledger/ledger.repository';
import { verifyLedger } from '../ledger/verify';
import { heldLockLevel, lockActiveBonuses, LockOrderViolation } from '../locks/lock-protocol';
import { lockSettlementAccounts, postSettlements, type SettlementPosting } from './settlement-postings';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 10 });
});
afterAll(async () => {
  await database.drop();
});

/** A user with a real stake of `cash` + `bonus` held in play, as a placement leaves it. */
async function userInPlay(cash: number, bonus: number): Promise<string> {
  const id = randomUUID();
  await openUserAccounts(database.db, id);
  await database.db.transaction().execute((trx) =>
    transfer(trx, {
      kind: 'trade_stake',
      idempotencyKey: `seed:${id}`,
      postings: [
        { account: { system: 'payments_clearing' }, amountCents: -cash },
        { account: { system: 'bonus_pool' }, amountCents: -bonus },
        { account: { owner: id, type: 'real_in_play' }, amountCents: cash },
        { account: { owner: id, type: 'bonus_in_play' }, amountCents: bonus },
      ],
    }),
  );
  return id;
}

const at = new Date(Date.UTC(2026, 0, 5, 12));

function won(owner: string): SettlementPosting {
  // Stake 7.00 cash + 3.00 bonus, won 8.00: 12.60 back to cash, 5.40 to bonus.
  return {
    kind: 'trade_payout',
    idempotencyKey: `trade:${randomUUID()}:settle`,
    ref: { tradeId: 'won' },
    occurredAt: at,
    postings: [
      { account: { owner, type: 'real_in_play' }, amountCents: -700 },
      { account: { owner, type: 'bonus_in_play' }, amountCents: -300 },
      { account: { owner, type: 'real' }, amountCents: 1_260 },
      { account: { owner, type: 'bonus' }, amountCents: 540 },
      { account: { system: 'house_real' }, amountCents: -560 },
      { account: { system: 'bonus_pool' }, amountCents: -240 },
    ],
  };
}

function lost(owner: string): SettlementPosting {
  return {
    kind: 'trade_loss',
    idempotencyKey: `trade:${randomUUID()}:settle`,
    ref: { tradeId: 'lost' },
    occurredAt: at,
    postings: [
      { account: { owner, type: 'real_in_play' }, amountCents: -700 },
      { account: { owner, type: 'bonus_in_play' }, amountCents: -300 },
      { account: { system: 'house_real' }, amountCents: 700 },
      { account: { system: 'bonus_pool' }, amountCents: 300 },
    ],
  };
}

describe('settlement postings', () => {
  it("locks every account of a batch's entries and the bonus holders' real and bonus in one step, then posts them all", async () => {
    const winner = await userInPlay(700, 300);
    const loser = await userInPlay(700, 300);
    const entries = [won(winner), lost(loser)];
    await database.db.transaction().execute(async (trx) => {
      const locked = await lockSettlementAccounts(trx, entries, [loser]);
      expect(heldLockLevel(trx)).toBe('accounts');
      expect([...locked.keys()].sort()).toEqual(
        [
          userAccountCode(winner, 'real_in_play'),
          userAccountCode(winner, 'bonus_in_play'),
          userAccountCode(winner, 'real'),
          userAccountCode(winner, 'bonus'),
          userAccountCode(loser, 'real_in_play'),
          userAccountCode(loser, 'bonus_in_play'),
          // The loser's entry names neither; holding an active bonus, they are locked for its conversion.
          userAccountCode(loser, 'real'),
          userAccountCode(loser, 'bonus'),
          ...new Set(
            entries.flatMap((e) =>
              e.postings
                .filter((p) => 'system' in p.account)
                .map((p) => accountCode(p.account, e.idempotencyKey)),
            ),
          ),
        ].sort(),
      );
      const result = await postSettlements(trx, entries);
      expect(result.postings).toBe(10);
    });
    expect(await getUserBalances(database.db, winner)).toMatchObject({
      real: 1_260,
      bonus: 540,
      real_in_play: 0,
      bonus_in_play: 0,
    });
    expect(await getUserBalances(database.db, loser)).toMatchObject({
      real: 0,
      real_in_play: 0,
      bonus_in_play: 0,
    });
    expect((await verifyLedger(database.db)).violations).toEqual([]);
  });

  it('refuses a posting outside the accounts locked, a step back to bonus rows, and entries that are not settlements', async () => {
    const user = await userInPlay(700, 300);
    const other = await userInPlay(700, 300);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await lockSettlementAccounts(trx, [won(user)], []);
        await postSettlements(trx, [won(other)]);
      }),
    ).rejects.toThrow(/did not lock/);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await lockSettlementAccounts(trx, [won(user)], []);
        await lockActiveBonuses(trx, [user]);
      }),
    ).rejects.toThrow(LockOrderViolation);
    await expect(
      database.db
        .transaction()
        .execute((trx) => postSettlements(trx, [{ ...won(user), kind: 'deposit' } as never])),
    ).rejects.toThrow(/not a settlement entry/);
    expect(await getUserBalances(database.db, user)).toMatchObject({ real_in_play: 700, bonus_in_play: 300 });
  });
});
