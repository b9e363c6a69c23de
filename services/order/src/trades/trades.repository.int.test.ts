import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { loadPlacementContext } from './trades.repository';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

async function newUser(): Promise<string> {
  const id = randomUUID();
  await sql`insert into users (id, email, name, password_hash)
            values (${id}, ${`${id}@example.com`}, 'Trader', 'x')`.execute(database.db);
  return id;
}

async function grantBonus(userId: string, amountCents: number, status: 'active' | 'completed') {
  await sql`insert into bonuses (id, user_id, amount_cents, turnover_required_cents, status, credited_at,
                                 expires_at, closed_at)
            values (${randomUUID()}, ${userId}, ${amountCents}, ${amountCents * 10}, ${status}, now(),
                    now() + interval '30 days', ${status === 'active' ? null : new Date()})`.execute(
    database.db,
  );
}

function load(symbol: string, userId: string) {
  return database.db.transaction().execute((trx) => loadPlacementContext(trx, symbol, userId));
}

describe('loadPlacementContext', () => {
  it('reads the pair, the stake ceiling and no bonus for a trader without one', async () => {
    const userId = await newUser();
    expect(await load('BTCUSDT', userId)).toEqual({
      pair: { symbol: 'BTCUSDT', active: true, payout_pct: 80 },
      maxStakeCents: 500_000,
      activeBonusCents: undefined,
    });
  });

  it('answers an unknown pair as missing and an inactive pair as inactive, with its payout', async () => {
    const userId = await newUser();
    expect((await load('NOPE', userId)).pair).toBeUndefined();
    await sql`update market_pairs set active = false, payout_pct = 72.5 where symbol = 'EURUSD'`.execute(
      database.db,
    );
    expect((await load('EURUSD', userId)).pair).toEqual({
      symbol: 'EURUSD',
      active: false,
      payout_pct: 72.5,
    });
  });

  it('takes the current stake ceiling from the platform settings', async () => {
    const userId = await newUser();
    await sql`update platform_settings set max_stake_cents = 12345`.execute(database.db);
    expect((await load('BTCUSDT', userId)).maxStakeCents).toBe(12_345);
    await sql`update platform_settings set max_stake_cents = 500000`.execute(database.db);
  });

  it("sees only the trader's own active bonus", async () => {
    const withBonus = await newUser();
    const closedBonus = await newUser();
    await grantBonus(withBonus, 5_000, 'active');
    await grantBonus(closedBonus, 7_000, 'completed');
    expect((await load('BTCUSDT', withBonus)).activeBonusCents).toBe(5_000);
    expect((await load('BTCUSDT', closedBonus)).activeBonusCents).toBeUndefined();
    expect((await load('BTCUSDT', await newUser())).activeBonusCents).toBeUndefined();
  });
});
