import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { walletHarness, type WalletHarness } from '../testing/wallet-harness';

const DAY_MS = 86_400_000;
/** Ten in the morning (UTC) of a day after today: the board's clock can only move forward. */
const START = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 10 * 3_600_000;

let database: TestDatabase;
let h: WalletHarness;

beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
  h = await walletHarness(database, { startMs: START });
});
afterAll(async () => {
  await h.t.close();
  await database.drop();
});

async function settled(
  userId: string,
  trades: {
    pnl: number;
    status?: 'won' | 'lost' | 'draw' | 'void';
    account?: 'real' | 'demo';
    at?: number;
  }[],
) {
  for (const trade of trades) {
    const at = trade.at ?? h.clock.nowMs();
    await database.db
      .insertInto('trades')
      .values({
        id: randomUUID(),
        user_id: userId,
        pair: 'BTCUSDT',
        direction: 'UP',
        account_type: trade.account ?? 'real',
        amount_cents: 1_000,
        stake_cash_cents: 1_000,
        stake_bonus_cents: 0,
        payout_pct: 80,
        duration_sec: 60,
        entry_price: 1,
        entry_at_ms: at - 61_000,
        accepted_at_ms: at - 61_000,
        expiry_at_ms: at - 1_000,
        status: trade.status ?? (trade.pnl > 0 ? 'won' : trade.pnl < 0 ? 'lost' : 'draw'),
        settled_at_ms: at,
        pnl_cents: trade.pnl,
      })
      .execute();
  }
}

describe('daily leaderboard', () => {
  it('ranks today’s settled real P/L, breaks ties by trades then id, and hides last names', async () => {
    const ann = await h.user('Ann Lee');
    const bob = await h.user('Bob Stone Martin');
    const cyd = await h.user('Cyd');
    const dee = await h.user('Dee Tie');
    const demoOnly = await h.user('Demo Person');
    await settled(ann.id, [{ pnl: 800 }, { pnl: 800 }, { pnl: -1_000 }]); // +6.00, 3 trades
    await settled(bob.id, [{ pnl: 4_000 }]); // +40.00
    await settled(cyd.id, [{ pnl: 600 }]); // +6.00, 1 trade: below Ann on the tie
    await settled(dee.id, [{ pnl: 300 }, { pnl: 300 }, { pnl: 0 }]); // +6.00, 3 trades: tie with Ann, by id
    await settled(demoOnly.id, [
      { pnl: 90_000, account: 'demo' },
      { pnl: 0, status: 'void' },
    ]);
    await settled(bob.id, [{ pnl: 99_900, at: START - 11 * 3_600_000 }]); // yesterday

    const res = await h.call('GET', '/api/leaderboard/daily');
    expect(res.statusCode).toBe(200);
    const board = res.json();
    const [first, second] = [ann, dee].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(board).toEqual([
      { rank: 1, user_id: bob.id, name: 'Bob M.', total_pnl: 40, total_trades: 1, win_rate: 100 },
      {
        rank: 2,
        user_id: first!.id,
        name: expect.any(String),
        total_pnl: 6,
        total_trades: 3,
        win_rate: expect.any(Number),
      },
      {
        rank: 3,
        user_id: second!.id,
        name: expect.any(String),
        total_pnl: 6,
        total_trades: 3,
        win_rate: expect.any(Number),
      },
      { rank: 4, user_id: cyd.id, name: 'Cyd', total_pnl: 6, total_trades: 1, win_rate: 100 },
    ]);
    expect(board.find((e: { user_id: string }) => e.user_id === ann.id)).toMatchObject({
      name: 'Ann L.',
      win_rate: 66.7,
    });
    expect(board.find((e: { user_id: string }) => e.user_id === dee.id)).toMatchObject({
      name: 'Dee T.',
      win_rate: 66.7,
    });
    // A stale or bad token on the public board is ignored.
    expect((await h.call('GET', '/api/leaderboard/daily', 'not-a-token')).statusCode).toBe(200);
    expect((await h.call('GET', '/api/leaderboard/daily', bob.token)).json()).toEqual(board);
  });

  it('keeps the top 20', async () => {
    for (let i = 0; i < 21; i++) {
      const u = await h.user(`Many Trader${i}`);
      await settled(u.id, [{ pnl: 1 }]);
    }
    expect((await h.call('GET', '/api/leaderboard/daily')).json()).toHaveLength(20);
  });

  it('gives a user their position, an admin anyone’s, and refuses others', async () => {
    const me = await h.user('Pos Itive');
    const other = await h.user('Oth Er');
    const admin = await h.admin();
    const before = await h.call('GET', `/api/leaderboard/daily/position/${me.id}`, me.token);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({
      rank: null,
      user_id: me.id,
      name: 'Pos I.',
      total_pnl: 0,
      total_trades: 0,
      win_rate: 0,
    });
    await settled(me.id, [{ pnl: 1_000_000 }]);
    expect((await h.call('GET', `/api/leaderboard/daily/position/${me.id}`, me.token)).json()).toMatchObject({
      rank: 1,
      total_pnl: 10_000,
    });
    expect((await h.call('GET', `/api/leaderboard/daily/position/${me.id}`, admin.token)).json().rank).toBe(
      1,
    );
    const forbidden = await h.call('GET', `/api/leaderboard/daily/position/${me.id}`, other.token);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().detail).toBeTruthy();
    expect((await h.call('GET', `/api/leaderboard/daily/position/${me.id}`)).statusCode).toBe(401);
    expect(
      (await h.call('GET', `/api/leaderboard/daily/position/${randomUUID()}`, admin.token)).statusCode,
    ).toBe(404);
    expect((await h.call('GET', '/api/leaderboard/daily/position/nope', me.token)).statusCode).toBe(400);
  });

  it('resets at midnight UTC', async () => {
    expect((await h.call('GET', '/api/leaderboard/daily')).json().length).toBeGreaterThan(0);
    h.clock.set(Math.floor(h.clock.nowMs() / DAY_MS) * DAY_MS + DAY_MS - 1);
    expect((await h.call('GET', '/api/leaderboard/daily')).json().length).toBeGreaterThan(0);
    h.clock.advance(1);
    expect((await h.call('GET', '/api/leaderboard/daily')).json()).toEqual([]);
    const late = await h.user('Late Owl');
    await settled(late.id, [{ pnl: 100 }]);
    expect((await h.call('GET', '/api/leaderboard/daily')).json()).toEqual([
      { rank: 1, user_id: late.id, name: 'Late O.', total_pnl: 1, total_trades: 1, win_rate: 100 },
    ]);
  });
});
