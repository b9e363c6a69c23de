import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '@updown/wallet';
import { createHarness, waitFor, type Harness } from './testing/harness';
import type { RunningSettlement } from './settlement.service';

let h: Harness;
let service: RunningSettlement;

beforeAll(async () => {
  h = await createHarness();
  service = await h.start();
});
afterAll(async () => {
  await h.close();
});

const DAY_MS = 86_400_000;

async function giveBonus(
  userId: string,
  bonus: { amountCents: number; requiredCents: number; turnoverCents?: number; expiresInMs?: number },
): Promise<string> {
  const id = randomUUID();
  const now = h.clock.nowMs();
  await h.db
    .insertInto('bonuses')
    .values({
      id,
      user_id: userId,
      amount_cents: bonus.amountCents,
      turnover_required_cents: bonus.requiredCents,
      turnover_cents: bonus.turnoverCents ?? 0,
      credited_at: new Date(now - DAY_MS),
      expires_at: new Date(now + (bonus.expiresInMs ?? 29 * DAY_MS)),
    })
    .execute();
  return id;
}

const bonusRow = (id: string) =>
  h.db.selectFrom('bonuses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Ticks the pair at `now`, lets `place` run, then moves past expiry with a rising price and waits for settlement. */
async function settleRound(pair: string, place: () => Promise<string[]>): Promise<string[]> {
  const t = h.clock.nowMs() + 1_000;
  h.clock.set(t);
  await h.tick(pair, t, 1.5);
  const ids = await place();
  h.clock.set(t + 59_000);
  await h.tick(pair, t + 59_000, 1.6);
  h.clock.set(t + 60_500);
  await h.tick(pair, t + 60_500, 1.55);
  await waitFor(
    async () => (await Promise.all(ids.map((id) => h.trade(id)))).every((tr) => tr.status !== 'pending'),
    'the round to settle',
  );
  return ids;
}

describe('bonus turnover from settled trades', () => {
  it('adds the stake of a real 60 s trade, nothing for demo, and nothing for either leg of a hedge', async () => {
    const user = await h.newUser({ real: 100_000, demo: 100_000, bonus: 20_000 });
    const bonus = await giveBonus(user, { amountCents: 20_000, requiredCents: 700_000 });
    const [real, demo] = await settleRound('EURUSD', async () => [
      (
        await h.place({
          userId: user,
          pair: 'EURUSD',
          direction: 'UP',
          amountCents: 1_000,
          accountType: 'real',
        })
      ).id,
      (
        await h.place({
          userId: user,
          pair: 'EURUSD',
          direction: 'UP',
          amountCents: 2_000,
          accountType: 'demo',
        })
      ).id,
    ]);
    expect(await h.trade(real!)).toMatchObject({ status: 'won', turnover_cents: 1_000 });
    expect(await h.trade(demo!)).toMatchObject({ status: 'won', turnover_cents: 0 });
    expect(await bonusRow(bonus)).toMatchObject({ turnover_cents: 1_000, status: 'active', closed_at: null });

    // Opposite directions on one pair and expiry: both legs count 0, and so does an unrelated user's.
    const other = await h.newUser({ real: 100_000 });
    const [up, down, otherUp] = await settleRound('EURUSD', async () => [
      (
        await h.place({
          userId: user,
          pair: 'EURUSD',
          direction: 'UP',
          amountCents: 1_500,
          accountType: 'real',
        })
      ).id,
      (
        await h.place({
          userId: user,
          pair: 'EURUSD',
          direction: 'DOWN',
          amountCents: 1_500,
          accountType: 'real',
        })
      ).id,
      (
        await h.place({
          userId: other,
          pair: 'EURUSD',
          direction: 'UP',
          amountCents: 700,
          accountType: 'real',
        })
      ).id,
    ]);
    expect(await h.trade(up!)).toMatchObject({ status: 'won', turnover_cents: 0 });
    expect(await h.trade(down!)).toMatchObject({ status: 'lost', turnover_cents: 0 });
    expect(await h.trade(otherUp!)).toMatchObject({ turnover_cents: 700 });
    expect(await bonusRow(bonus)).toMatchObject({ turnover_cents: 1_000, status: 'active' });
    expect((await verifyLedger(h.db)).violations).toEqual([]);
  });

  it('completes the bonus when turnover reaches the requirement and converts the bonus balance to cash', async () => {
    const user = await h.newUser({ real: 500, bonus: 10_000 });
    const bonus = await giveBonus(user, { amountCents: 10_000, requiredCents: 2_000, turnoverCents: 1_500 });
    const [trade] = await settleRound('GBPUSD', async () => [
      (
        await h.place({
          userId: user,
          pair: 'GBPUSD',
          direction: 'UP',
          amountCents: 1_000,
          accountType: 'real',
        })
      ).id,
    ]);
    // Stake 5.00 cash + 5.00 bonus; won 8.00, returned half to cash and half to bonus, then the
    // whole bonus balance (95.00 + 9.00) became cash.
    const settled = await h.trade(trade!);
    expect(settled).toMatchObject({
      status: 'won',
      pnl_cents: 800,
      stake_cash_cents: 500,
      stake_bonus_cents: 500,
      turnover_cents: 1_000,
    });
    const row = await bonusRow(bonus);
    expect(row).toMatchObject({ status: 'completed', turnover_cents: 2_500 });
    expect(row.closed_at?.getTime()).toBe(settled.settled_at_ms);
    expect(await h.balances(user)).toMatchObject({
      real: 900 + 10_400,
      bonus: 0,
      real_in_play: 0,
      bonus_in_play: 0,
    });
    const conversion = await h.db
      .selectFrom('ledger_entries')
      .select(['kind', 'ref'])
      .where('idempotency_key', '=', `bonus:${bonus}:convert`)
      .executeTakeFirstOrThrow();
    expect(conversion).toEqual({ kind: 'bonus_conversion', ref: { bonusId: bonus } });
    expect((await verifyLedger(h.db)).violations).toEqual([]);
  });

  it('leaves a bonus past its expiry alone, even before the expiry job has closed it', async () => {
    const user = await h.newUser({ real: 100_000, bonus: 10_000 });
    const bonus = await giveBonus(user, { amountCents: 10_000, requiredCents: 1_000, expiresInMs: 30_000 });
    const [trade] = await settleRound('USDJPY', async () => [
      (
        await h.place({
          userId: user,
          pair: 'USDJPY',
          direction: 'UP',
          amountCents: 1_000,
          accountType: 'real',
        })
      ).id,
    ]);
    expect(await h.trade(trade!)).toMatchObject({ turnover_cents: 1_000 });
    expect(await bonusRow(bonus)).toMatchObject({ status: 'active', turnover_cents: 0 });
    expect(await h.balances(user)).toMatchObject({ bonus: 10_000 });
    await service.settleDue();
  });
});
