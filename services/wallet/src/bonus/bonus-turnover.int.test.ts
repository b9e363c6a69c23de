import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { userAccountCode } from '../ledger/ledger.domain';
import { getUserBalances, openUserAccounts, transfer } from '../ledger/ledger.repository';
import { verifyLedger } from '../ledger/verify';
import { lockAccounts, lockActiveBonuses, LockOrderViolation } from '../locks/lock-protocol';
import { applyBonusTurnover } from './bonus-turnover';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 10 });
});
afterAll(async () => {
  await database.drop();
});

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 0, 5, 12);

/** A user holding `bonusCents` in their bonus account and an active bonus with this turnover. */
async function bonusHolder(bonus: {
  balanceCents: number;
  requiredCents: number;
  turnoverCents: number;
  expiresAt?: number;
}): Promise<{ userId: string; bonusId: string }> {
  const userId = randomUUID();
  const bonusId = randomUUID();
  await sql`insert into users (id, email, name, password_hash)
            values (${userId}, ${`${userId}@example.test`}, 'Trader', 'x')`.execute(database.db);
  await openUserAccounts(database.db, userId);
  await database.db.transaction().execute((trx) =>
    transfer(trx, {
      kind: 'bonus_credit',
      idempotencyKey: `bonus:${bonusId}:credit`,
      postings: [
        { account: { system: 'bonus_pool' }, amountCents: -bonus.balanceCents },
        { account: { owner: userId, type: 'bonus' }, amountCents: bonus.balanceCents },
      ],
    }),
  );
  await database.db
    .insertInto('bonuses')
    .values({
      id: bonusId,
      user_id: userId,
      amount_cents: bonus.balanceCents,
      turnover_required_cents: bonus.requiredCents,
      turnover_cents: bonus.turnoverCents,
      credited_at: new Date(NOW - DAY_MS),
      expires_at: new Date(bonus.expiresAt ?? NOW + 29 * DAY_MS),
    })
    .execute();
  return { userId, bonusId };
}

const bonusRow = (id: string) =>
  database.db
    .selectFrom('bonuses')
    .select(['status', 'turnover_cents', 'closed_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** Runs the wallet's part of a settlement: lock the bonus rows, then real and bonus of their owners. */
function settleTurnover(userIds: readonly string[], turnover: ReadonlyMap<string, number>) {
  return database.db.transaction().execute(async (trx) => {
    const bonuses = await lockActiveBonuses(trx, userIds);
    await lockAccounts(
      trx,
      bonuses.flatMap((b) => [userAccountCode(b.userId, 'real'), userAccountCode(b.userId, 'bonus')]),
    );
    return applyBonusTurnover(trx, bonuses, turnover, NOW);
  });
}

describe('applyBonusTurnover', () => {
  it('adds turnover, completes the bonuses that reach their requirement and converts their balance to cash', async () => {
    const wagering = await bonusHolder({ balanceCents: 5_000, requiredCents: 10_000, turnoverCents: 0 });
    const done = await bonusHolder({ balanceCents: 7_000, requiredCents: 2_000, turnoverCents: 1_500 });
    const noTurnover = await bonusHolder({ balanceCents: 1_000, requiredCents: 100, turnoverCents: 0 });
    const completed = await settleTurnover(
      [wagering.userId, done.userId, noTurnover.userId],
      new Map([
        [wagering.userId, 1_000],
        [done.userId, 500],
      ]),
    );
    expect(completed).toEqual([{ bonusId: done.bonusId, userId: done.userId, convertedCents: 7_000 }]);
    expect(await bonusRow(wagering.bonusId)).toMatchObject({
      status: 'active',
      turnover_cents: 1_000,
      closed_at: null,
    });
    expect(await bonusRow(done.bonusId)).toEqual({
      status: 'completed',
      turnover_cents: 2_000,
      closed_at: new Date(NOW),
    });
    expect(await bonusRow(noTurnover.bonusId)).toMatchObject({ status: 'active', turnover_cents: 0 });
    expect(await getUserBalances(database.db, done.userId)).toMatchObject({ real: 7_000, bonus: 0 });
    expect(await getUserBalances(database.db, wagering.userId)).toMatchObject({ real: 0, bonus: 5_000 });
    const conversion = await database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'ref', 'created_at'])
      .where('idempotency_key', '=', `bonus:${done.bonusId}:convert`)
      .executeTakeFirstOrThrow();
    expect(conversion).toEqual({
      kind: 'bonus_conversion',
      ref: { bonusId: done.bonusId },
      created_at: new Date(NOW),
    });
    expect((await verifyLedger(database.db)).violations).toEqual([]);
  });

  it('leaves a bonus past its expiry alone, and completes one with an empty balance without a conversion', async () => {
    const expired = await bonusHolder({
      balanceCents: 1_000,
      requiredCents: 100,
      turnoverCents: 0,
      expiresAt: NOW - 1,
    });
    const empty = await bonusHolder({ balanceCents: 1, requiredCents: 100, turnoverCents: 0 });
    await database.db.transaction().execute((trx) =>
      transfer(trx, {
        kind: 'bonus_forfeit',
        idempotencyKey: `empty:${empty.bonusId}`,
        postings: [
          { account: { owner: empty.userId, type: 'bonus' }, amountCents: -1 },
          { account: { system: 'bonus_pool' }, amountCents: 1 },
        ],
      }),
    );
    const completed = await settleTurnover(
      [expired.userId, empty.userId],
      new Map([
        [expired.userId, 500],
        [empty.userId, 500],
      ]),
    );
    expect(completed).toEqual([{ bonusId: empty.bonusId, userId: empty.userId, convertedCents: 0 }]);
    expect(await bonusRow(expired.bonusId)).toMatchObject({ status: 'active', turnover_cents: 0 });
    expect(await getUserBalances(database.db, expired.userId)).toMatchObject({ real: 0, bonus: 1_000 });
  });

  it("refuses to convert a bonus whose owner's accounts the command did not lock", async () => {
    const done = await bonusHolder({ balanceCents: 1_000, requiredCents: 100, turnoverCents: 0 });
    await expect(
      database.db.transaction().execute(async (trx) => {
        const bonuses = await lockActiveBonuses(trx, [done.userId]);
        await lockAccounts(trx, [userAccountCode(done.userId, 'real')]);
        await applyBonusTurnover(trx, bonuses, new Map([[done.userId, 100]]), NOW);
      }),
    ).rejects.toThrow(LockOrderViolation);
    expect(await bonusRow(done.bonusId)).toMatchObject({ status: 'active', turnover_cents: 0 });
  });
});
