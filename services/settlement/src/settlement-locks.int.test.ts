import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { someoneWaitsForALock } from '@updown/runtime/testing';
import { transfer, userAccountCode, verifyLedger } from '@updown/wallet';
import { settleBatch } from './settle-batch';
import { createHarness, type Harness } from './testing/harness';

/**
 * Settlement's lock order against the wallet's bonus commands, checked step by step rather than by
 * hoping two transactions collide: a cancel holds the bonus row, settlement must then wait for it
 * before it locks any of the user's ledger accounts, so the cancel's next step never waits on
 * settlement. No settlement service runs here; the batch is called directly.
 */

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const DAY_MS = 86_400_000;
const PAIR = 'XAUUSD';

/** An active bonus row for `user`, credited a day before `atMs`, expiring 29 days after it. */
async function giveBonus(
  user: string,
  atMs: number,
  cents: { amount: number; required: number; turnover?: number },
): Promise<string> {
  const id = randomUUID();
  await h.db
    .insertInto('bonuses')
    .values({
      id,
      user_id: user,
      amount_cents: cents.amount,
      turnover_required_cents: cents.required,
      ...(cents.turnover === undefined ? {} : { turnover_cents: cents.turnover }),
      credited_at: new Date(atMs - DAY_MS),
      expires_at: new Date(atMs + 29 * DAY_MS),
    })
    .execute();
  return id;
}

describe('settlement and a bonus cancel of the same user', () => {
  it('waits for the bonus row before locking ledger accounts, so the cancel goes through first', async () => {
    const user = await h.newUser({ bonus: 10_000 });
    const t = h.clock.nowMs();
    const bonusId = await giveBonus(user, t, { amount: 10_000, required: 350_000 });
    await h.storeTicks([{ pair: PAIR, atMs: t, price: 4_050 }]);
    const trade = await h.place({
      userId: user,
      pair: PAIR,
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'real',
    });
    expect(trade.stake_bonus_cents).toBe(1_000);
    h.clock.set(t + 60_500);
    await h.storeTicks([
      { pair: PAIR, atMs: t + 59_000, price: 4_051 },
      { pair: PAIR, atMs: t + 60_500, price: 4_052 },
    ]);

    let settling: ReturnType<typeof settleBatch> | undefined;
    // The cancel, as the wallet runs it: the bonus row first, then the user's bonus account.
    await h.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('bonuses')
        .set({ status: 'forfeited', closed_at: new Date(t) })
        .where('id', '=', bonusId)
        .execute();
      settling = settleBatch(h.db, {
        due: [{ pair: PAIR, dueBefore: t + 60_500 }],
        limit: 100,
        now: h.clock.nowMs(),
      });
      await someoneWaitsForALock(h.db);
      // `nowait`: if settlement held the account, this fails at once instead of deadlocking.
      await sql`select id from ledger_accounts where code = ${userAccountCode(user, 'bonus')} for update nowait`.execute(
        trx,
      );
      await transfer(trx, {
        kind: 'bonus_forfeit',
        idempotencyKey: `bonus:${bonusId}:forfeit`,
        postings: [
          { account: { owner: user, type: 'bonus' }, amountCents: -9_000 },
          { account: { system: 'bonus_pool' }, amountCents: 9_000 },
        ],
      });
    });

    const result = await settling!;
    expect(result.settled.map((s) => [s.tradeId, s.status])).toEqual([[trade.id, 'won']]);
    // Settled after the cancel: the stake and its profit come back as bonus money, and count no turnover.
    expect(await h.balances(user)).toMatchObject({ bonus: 1_800, bonus_in_play: 0 });
    expect(
      await h.db
        .selectFrom('bonuses')
        .select(['status', 'turnover_cents'])
        .where('id', '=', bonusId)
        .executeTakeFirst(),
    ).toEqual({ status: 'forfeited', turnover_cents: 0 });
    expect((await verifyLedger(h.db)).ok).toBe(true);
  });
});

describe('placement and a settlement converting a completing bonus of the same user', () => {
  const ROUNDS = 30;
  const FX = 'EURUSD';

  it(`never deadlock, with no retry anywhere (${ROUNDS} rounds, won and lost)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await h.newUser({ real: 100_000, bonus: 10_000, demo: 10_000 });
      const t = h.clock.nowMs() + 1_000;
      h.clock.set(t);
      const bonusId = await giveBonus(user, t, { amount: 10_000, required: 20_000, turnover: 19_000 });
      await h.storeTicks([{ pair: FX, atMs: t, price: 1.1 }]);
      await h.place({ userId: user, pair: FX, direction: 'UP', amountCents: 1_000, accountType: 'real' });
      // A lost trade posts only to the in-play accounts and the house, then the conversion needs
      // real and bonus: the order that used to cross a placement's. A won one posts to all four.
      const exit = round % 2 === 0 ? 1.09 : 1.11;
      h.clock.set(t + 60_500);
      await h.storeTicks([
        { pair: FX, atMs: t + 59_000, price: exit },
        { pair: FX, atMs: t + 60_500, price: exit },
      ]);
      const outcomes = await Promise.allSettled([
        settleBatch(h.db, {
          due: [{ pair: FX, dueBefore: t + 60_500 }],
          limit: 1_000,
          now: h.clock.nowMs(),
        }),
        ...Array.from({ length: 4 }, (_, i) =>
          h.place({
            userId: user,
            pair: FX,
            direction: i % 2 === 0 ? 'UP' : 'DOWN',
            amountCents: 500,
            accountType: i === 3 ? 'demo' : 'real',
          }),
        ),
      ]);
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
      expect(failures.map((f) => `${(f as { code?: string }).code ?? ''} ${f.message}`)).toEqual([]);
      expect(
        await h.db.selectFrom('bonuses').select('status').where('id', '=', bonusId).executeTakeFirstOrThrow(),
      ).toEqual({ status: 'completed' });
    }
    expect((await verifyLedger(h.db)).violations).toEqual([]);
  }, 60_000);
});
