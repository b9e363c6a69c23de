import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { TOXICITY_TRADES_MAX, TOXICITY_WINDOW_DAYS } from './toxicity.domain';
import {
  listTopToxicity,
  refreshToxicityScores,
  toxicityByUser,
  TOXICITY_LIST_MAX,
} from './toxicity.repository';

let database: TestDatabase;

// A database of its own per test: each refresh rewrites and deletes across all traders.
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.drop();
});

const DAY_MS = 86_400_000;
const NOW_MS = Date.UTC(2026, 5, 1, 12, 0, 0);
const PAIR = 'BTCUSDT';

async function newUser(): Promise<string> {
  const id = randomUUID();
  await sql`insert into users (id, email, name, password_hash)
            values (${id}, ${`${id}@example.com`}, 'Trader', 'x')`.execute(database.db);
  return id;
}

async function storeTicks(ticks: readonly { atMs: number; price: number }[]): Promise<void> {
  await sql`insert into market_ticks (pair, at_ms, price)
            select ${PAIR}, t.at_ms, t.price
            from unnest(${ticks.map((t) => t.atMs)}::bigint[], ${ticks.map((t) => t.price)}::float8[]) as t (at_ms, price)`.execute(
    database.db,
  );
}

interface SettledTrade {
  readonly userId: string;
  readonly direction: 'UP' | 'DOWN';
  readonly won: boolean;
  readonly acceptedAtMs: number;
  readonly entryPrice: number;
  readonly accountType?: 'demo' | 'real';
  readonly status?: 'draw' | 'void';
}

/** Inserts 60 s trades already settled at expiry, stake $10 at 80 %. */
async function storeTrades(trades: readonly SettledTrade[]): Promise<void> {
  const status = trades.map((t) => t.status ?? (t.won ? 'won' : 'lost'));
  await sql`
    insert into trades (id, user_id, pair, direction, account_type, amount_cents, stake_cash_cents, stake_bonus_cents,
                        payout_pct, duration_sec, entry_price, entry_at_ms, accepted_at_ms, expiry_at_ms,
                        status, pnl_cents, settled_at_ms)
    select gen_random_uuid(), t.user_id, ${PAIR}, t.direction, t.account_type, 1000, 1000, 0,
           80, 60, t.entry_price, t.accepted_at_ms, t.accepted_at_ms, t.accepted_at_ms + 60000,
           t.status, case t.status when 'won' then 800 when 'lost' then -1000 else 0 end, t.accepted_at_ms + 60000
    from unnest(${trades.map((t) => t.userId)}::uuid[], ${trades.map((t) => t.direction)}::text[],
                ${trades.map((t) => t.accountType ?? 'real')}::text[], ${trades.map((t) => t.entryPrice)}::float8[],
                ${trades.map((t) => t.acceptedAtMs)}::bigint[], ${status}::text[])
      as t (user_id, direction, account_type, entry_price, accepted_at_ms, status)`.execute(database.db);
}

/**
 * Forty trades a minute apart for each of two traders, within the last day. The pair's price is
 * 100 six seconds before each arbitrage trade and has risen to 100.3 (+30 bps) by its
 * acceptance; the arbitrageur buys UP on every one of those rises and wins 34 of 40. The other
 * trader trades 30 s later, when the price has stood still at 100.3 since, alternates UP and
 * DOWN and wins every other trade.
 */
async function seedTraders(): Promise<{ arb: string; chance: string; demoOnly: string }> {
  const [arb, chance, demoOnly] = [await newUser(), await newUser(), await newUser()];
  const startMs = NOW_MS - DAY_MS;
  const ticks: { atMs: number; price: number }[] = [];
  const trades: SettledTrade[] = [];
  for (let i = 0; i < 40; i++) {
    const acceptedAtMs = startMs + i * 60_000;
    ticks.push({ atMs: acceptedAtMs - 6_000, price: 100 }, { atMs: acceptedAtMs - 500, price: 100.3 });
    const entryPrice = 100.3;
    const later = { acceptedAtMs: acceptedAtMs + 30_000, entryPrice };
    trades.push(
      { userId: arb, direction: 'UP', won: i % 7 !== 0, acceptedAtMs, entryPrice },
      { userId: chance, direction: i % 2 === 0 ? 'UP' : 'DOWN', won: i % 4 < 2, ...later },
      // Demo trades, draws and voids are no evidence of anything, however they went.
      { userId: demoOnly, direction: 'UP', won: true, acceptedAtMs, entryPrice, accountType: 'demo' },
      { userId: arb, direction: 'UP', won: false, acceptedAtMs, entryPrice, accountType: 'demo' },
      { userId: arb, direction: 'DOWN', won: false, acceptedAtMs, entryPrice, status: 'void' },
      { userId: chance, direction: 'UP', won: false, ...later, status: 'draw' },
    );
  }
  await storeTicks(ticks);
  await storeTrades(trades);
  return { arb, chance, demoOnly };
}

describe('refreshToxicityScores', () => {
  it('scores each trader with real trades from their trades and the ticks before them', async () => {
    const { arb, chance, demoOnly } = await seedTraders();
    expect(await refreshToxicityScores(database.db, NOW_MS)).toEqual({ scored: 2 });

    const scores = await toxicityByUser(database.db, [arb, chance, demoOnly]);
    expect([...scores.keys()].sort()).toEqual([arb, chance].sort());
    const a = scores.get(arb)!;
    const c = scores.get(chance)!;
    // Every arbitrage trade follows the +30 bps move found through the tick 5 s before acceptance.
    expect(a).toMatchObject({ trades: 40, wins: 34, after_move_pct: 100, latency: 1, skill: 1 });
    expect(a.profit_factor).toBeCloseTo((34 * 800) / (6 * 1000));
    expect(a).toMatchObject({ window_days: TOXICITY_WINDOW_DAYS, computed_at_ms: NOW_MS });
    // The chance trader's look-ups find the flat price: no move, no skill, a losing profit factor.
    expect(c).toMatchObject({
      trades: 40,
      wins: 20,
      after_move_pct: 0,
      z_score: 0,
      profit_factor: 0.8,
      score: 0,
    });
    expect(a.score).toBeGreaterThan(70);

    const top = await listTopToxicity(database.db, 10);
    expect(top.map((row) => row.user_id)).toEqual([arb, chance]);
    expect(top[0]).toEqual(a);
  });

  it('sees no move when the pair has no tick at or before the look-back point', async () => {
    const user = await newUser();
    const acceptedAtMs = NOW_MS - 3_600_000;
    // A pair of its own: only a tick 2 s before acceptance, after the look-back point.
    await sql`insert into market_ticks (pair, at_ms, price) values ('ETHUSDT', ${acceptedAtMs - 2_000}, 100)`.execute(
      database.db,
    );
    await sql`
      insert into trades (id, user_id, pair, direction, account_type, amount_cents, stake_cash_cents, stake_bonus_cents,
                          payout_pct, duration_sec, entry_price, entry_at_ms, accepted_at_ms, expiry_at_ms,
                          status, pnl_cents, settled_at_ms)
      values (${randomUUID()}, ${user}, 'ETHUSDT', 'UP', 'real', 1000, 1000, 0, 80, 60, 101, ${acceptedAtMs},
              ${acceptedAtMs}, ${acceptedAtMs + 60_000}, 'won', 800, ${acceptedAtMs + 60_000})`.execute(
      database.db,
    );
    await refreshToxicityScores(database.db, NOW_MS);
    expect((await toxicityByUser(database.db, [user])).get(user)).toMatchObject({
      trades: 1,
      wins: 1,
      after_move_pct: 0,
      latency: 0,
      profit_factor: null,
    });
  });

  it("scores only a trader's most recent 500 trades", async () => {
    const user = await newUser();
    // Two losses settled first, then 500 wins: the losses fall outside the 500 most recent.
    await storeTrades(
      Array.from({ length: TOXICITY_TRADES_MAX + 2 }, (_, i) => ({
        userId: user,
        direction: 'UP' as const,
        won: i >= 2,
        acceptedAtMs: NOW_MS - DAY_MS + i * 60_000,
        entryPrice: 100,
      })),
    );
    await refreshToxicityScores(database.db, NOW_MS);
    expect((await toxicityByUser(database.db, [user])).get(user)).toMatchObject({
      trades: TOXICITY_TRADES_MAX,
      wins: TOXICITY_TRADES_MAX,
      profit_factor: null,
    });
  });

  it('deletes the score of a trader whose trades have left the window, on the next refresh', async () => {
    const user = await newUser();
    const acceptedAtMs = NOW_MS - 2 * DAY_MS;
    await storeTrades([{ userId: user, direction: 'UP', won: true, acceptedAtMs, entryPrice: 100 }]);
    await refreshToxicityScores(database.db, NOW_MS);
    expect((await toxicityByUser(database.db, [user])).has(user)).toBe(true);

    const laterMs = acceptedAtMs + 60_000 + TOXICITY_WINDOW_DAYS * DAY_MS + 1;
    await refreshToxicityScores(database.db, laterMs);
    expect((await toxicityByUser(database.db, [user])).has(user)).toBe(false);
  });

  it('does not let a refresh at an earlier time overwrite a later one', async () => {
    const user = await newUser();
    await storeTrades([
      { userId: user, direction: 'UP', won: true, acceptedAtMs: NOW_MS - DAY_MS, entryPrice: 100 },
      { userId: user, direction: 'UP', won: false, acceptedAtMs: NOW_MS - 60_500, entryPrice: 100 },
    ]);
    await refreshToxicityScores(database.db, NOW_MS);
    const latest = (await toxicityByUser(database.db, [user])).get(user);
    expect(latest).toMatchObject({ trades: 2, computed_at_ms: NOW_MS });
    // Run late, at a time before the loss settled: it would score one trade, and changes nothing.
    await refreshToxicityScores(database.db, NOW_MS - 1_000);
    expect((await toxicityByUser(database.db, [user])).get(user)).toEqual(latest);
  });
});

describe('toxicityByUser', () => {
  it('keys each score by the id as the caller spelled it', async () => {
    await seedTraders();
    await refreshToxicityScores(database.db, NOW_MS);
    const [top] = await listTopToxicity(database.db, 1);
    const spelled = top!.user_id.toUpperCase();
    expect((await toxicityByUser(database.db, [spelled])).get(spelled)).toEqual(top);
    expect(await toxicityByUser(database.db, [])).toEqual(new Map());
  });

  it('refuses more ids or rows than it serves at once', async () => {
    await expect(listTopToxicity(database.db, TOXICITY_LIST_MAX + 1)).rejects.toThrow(RangeError);
    const ids = Array.from({ length: TOXICITY_LIST_MAX + 1 }, () => randomUUID());
    await expect(toxicityByUser(database.db, ids)).rejects.toThrow(RangeError);
  });
});
