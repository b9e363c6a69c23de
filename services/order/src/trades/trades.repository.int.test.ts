import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, waitFor, type TestDatabase } from '@updown/runtime/testing';
import { runPgTransaction, type OutboxSourcePosition } from '@updown/runtime';
import { countSettledAfter, markSettled, readSettledAfter } from './settlement-path.repository';
import { findTradesByIdempotencyKeys, insertTrades, loadPlacementContext } from './trades.repository';

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

/** The context of one placement, as a batch of one reads it. */
async function load(symbol: string, userId: string) {
  const context = await database.db
    .transaction()
    .execute((trx) => loadPlacementContext(trx, [symbol], [userId]));
  return {
    pair: context.pairs.get(symbol),
    stakeCentsMax: context.stakeCentsMax,
    activeBonusCents: context.activeBonusCents.get(userId),
  };
}

describe('loadPlacementContext', () => {
  it('reads the pair, the stake ceiling and no bonus for a trader without one', async () => {
    const userId = await newUser();
    expect(await load('BTCUSDT', userId)).toEqual({
      pair: { symbol: 'BTCUSDT', active: true, payout_pct: 80 },
      stakeCentsMax: 500_000,
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
    expect((await load('BTCUSDT', userId)).stakeCentsMax).toBe(12_345);
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

  it('reads every pair and every user of a batch in one statement, repeats and unknowns included', async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    await grantBonus(a, 5_000, 'active');
    await grantBonus(c, 9_000, 'active');
    const context = await database.db
      .transaction()
      .execute((trx) => loadPlacementContext(trx, ['BTCUSDT', 'NOPE', 'BTCUSDT', 'GBPUSD'], [a, b, c, a]));
    expect([...context.pairs.keys()].sort()).toEqual(['BTCUSDT', 'GBPUSD']);
    expect(context.pairs.get('GBPUSD')).toMatchObject({ symbol: 'GBPUSD', active: true });
    expect(context.activeBonusCents).toEqual(
      new Map([
        [a, 5_000],
        [c, 9_000],
      ]),
    );
    expect(context.stakeCentsMax).toBe(500_000);
  });

  it('keys each user by the id as the caller spelled it, so an upper-case id still finds its bonus', async () => {
    const userId = await newUser();
    await grantBonus(userId, 6_000, 'active');
    const spelled = userId.toUpperCase();
    const context = await database.db
      .transaction()
      .execute((trx) => loadPlacementContext(trx, ['BTCUSDT'], [spelled]));
    expect(context.activeBonusCents).toEqual(new Map([[spelled, 6_000]]));
  });
});

describe('findTradesByIdempotencyKeys', () => {
  it("finds each user's own trade under a key, keyed as the caller spelled the user", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const [tradeA, tradeB] = await seedTrades([
      { userId: a, key: 'k' },
      { userId: b, key: 'other' },
    ]);
    const found = await findTradesByIdempotencyKeys(database.db, [
      { userId: a.toUpperCase(), idempotencyKey: 'k' },
      { userId: b, idempotencyKey: 'k' },
      { userId: b, idempotencyKey: 'other' },
    ]);
    expect(found.map((f) => [f.key, f.trade.id]).sort()).toEqual(
      [
        [{ userId: a.toUpperCase(), idempotencyKey: 'k' }, tradeA],
        [{ userId: b, idempotencyKey: 'other' }, tradeB],
      ].sort(),
    );
    expect(found.find((f) => f.trade.id === tradeA)?.trade).not.toHaveProperty('found_by_user_id');
    expect(await findTradesByIdempotencyKeys(database.db, [])).toEqual([]);
  });
});

describe('insertTrades', () => {
  it('inserts every trade with one statement and answers them in the order given', async () => {
    const userId = await newUser();
    const ids = await seedTrades(
      [900, 100, 500].map((amountCents, i) => ({ userId, key: i === 1 ? null : `key-${i}`, amountCents })),
    );
    const rows = await database.db.selectFrom('trades').selectAll().where('id', 'in', ids).execute();
    expect(rows).toHaveLength(3);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(ids.map((id) => byId.get(id)!.amount_cents)).toEqual([900, 100, 500]);
    expect(byId.get(ids[1]!)).toMatchObject({ idempotency_key: null, status: 'pending', exit_price: null });
  });

  it('answers each trade exactly as a select of it reads, on a kysely or a pg-client transaction', async () => {
    const userId = await newUser();
    const trade = (payoutPct: number, entryPrice: number, entryTickId: number | null) => ({
      pair: 'BTCUSDT',
      direction: 'DOWN' as const,
      accountType: 'real' as const,
      amountCents: 1_234,
      payoutPct,
      entryPrice,
      entryAtMs: AT - 100,
      entryTickId,
      acceptedAtMs: AT + 7,
      expiryAtMs: AT + 300_007,
      durationSec: 300,
      stakeFromCashCents: 1_000,
      stakeFromBonusCents: 234,
    });
    const batch = [
      // The user as an upper-case uuid: the database answers its own spelling.
      {
        id: randomUUID(),
        userId: userId.toUpperCase(),
        idempotencyKey: 'a "quoted", {braced} key\\',
        trade: trade(87.555, 0.1 + 0.2, 42),
      },
      { id: randomUUID(), userId, idempotencyKey: null, trade: trade(80, 97_000.123456789, null) },
    ];
    const viaKysely = await database.db.transaction().execute((trx) => insertTrades(trx, batch.slice(0, 1)));
    const viaClient = await runPgTransaction(database.pool, (trx) => insertTrades(trx, batch.slice(1)));
    const answered = [...viaKysely, ...viaClient];
    const stored = await database.db
      .selectFrom('trades')
      .selectAll()
      .where(
        'id',
        'in',
        batch.map((b) => b.id),
      )
      .execute();
    const byId = new Map(stored.map((row) => [row.id, row]));
    expect(answered).toEqual(batch.map((b) => byId.get(b.id)));
    expect(answered[0]).toMatchObject({ user_id: userId, payout_pct: 87.56, entry_tick_id: 42 });
    expect(answered[0]!.idempotency_key).toBe(batch[0]!.idempotencyKey);
    expect(answered[1]).toMatchObject({ entry_price: 97_000.123456789, opened_seq: expect.any(Number) });
  });
});

describe('markSettled and readSettledAfter: the trades table as the outbox of trades.settled.v1', () => {
  const settle = (ids: readonly string[], status: 'won' | 'lost', settledAtMs: number) =>
    database.db.transaction().execute((trx) =>
      markSettled(
        trx,
        ids.map((id) => ({
          id,
          status,
          exitPrice: 97_001,
          exitAtMs: AT + 59_900,
          exitTickId: null,
          pnlCents: 0,
        })),
        settledAtMs,
      ),
    );
  const readAfter = (after: OutboxSourcePosition | null, limit = 100) =>
    database.db.transaction().execute((trx) => readSettledAfter(trx, after, limit));
  /** What the relay's backlog gauge counts for the settled trades: the rows `readAfter` would return. */
  const pendingAfter = (after: OutboxSourcePosition | null, cap = 100) =>
    database.db.transaction().execute((trx) => countSettledAfter(trx, after, cap));
  /**
   * What `readAfter` returns once it holds `count` rows. Any transaction on the server, another
   * test's included, holds back rows written after it began until it ends, so reads wait for that.
   */
  const readSettled = async (after: OutboxSourcePosition | null, count: number, limit = 100) => {
    let rows: Awaited<ReturnType<typeof readAfter>> = [];
    await waitFor(async () => (rows = await readAfter(after, limit)).length >= count, {
      what: `${count} settled trades after the cursor`,
    });
    return rows;
  };
  /** The last position now readable: where a test's own rows will start. */
  const cursorNow = async () => {
    let last: OutboxSourcePosition | null = null;
    for (;;) {
      const page = await readAfter(last, 1_000);
      if (page.length === 0) return last;
      last = page.at(-1)!.position;
    }
  };

  it('gives each settled trade a publish position, and reads them back after a cursor in that order', async () => {
    const userId = await newUser();
    const [a, b, c] = await seedTrades([0, 1, 2].map(() => ({ userId, key: null })));
    const start = await cursorNow();
    expect(await settle([a!, b!], 'won', AT + 60_100)).toEqual(new Set([a, b]));
    expect(await settle([c!], 'lost', AT + 60_200)).toEqual(new Set([c]));
    expect(await settle([c!], 'won', AT + 60_300)).toEqual(new Set()); // settled once: no new position

    const read = await readSettled(start, 3);
    expect(read.map((r) => r.id).slice(2)).toEqual([c]);
    expect(new Set(read.map((r) => r.id).slice(0, 2))).toEqual(new Set([a, b]));
    expect(read[2]).toMatchObject({
      user_id: userId,
      pair: 'BTCUSDT',
      account_type: 'real',
      status: 'lost',
      exit_price: 97_001,
      settled_at_ms: AT + 60_200,
    });
    expect(await readSettled(read[1]!.position, 1)).toEqual([read[2]]);
    expect(await readAfter(read[2]!.position)).toEqual([]);
    expect(await readSettled(start, 1, 1)).toEqual([read[0]]);
    expect(await pendingAfter(start)).toBe(3);
    expect(await pendingAfter(start, 2)).toBe(2);
    expect(await pendingAfter(read[1]!.position)).toBe(1);
    expect(await pendingAfter(read[2]!.position)).toBe(0);
  });

  it('holds back what a settlement still running would put behind the cursor', async () => {
    const userId = await newUser();
    const [early, late] = await seedTrades([0, 1].map(() => ({ userId, key: null })));
    const start = await cursorNow();
    let release: (() => void) | undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let marked: (() => void) | undefined;
    const hasMarked = new Promise<void>((resolve) => (marked = resolve));
    const running = database.db.transaction().execute(async (trx) => {
      await markSettled(
        trx,
        [{ id: early!, status: 'won', exitPrice: 1, exitAtMs: AT, exitTickId: null, pnlCents: 0 }],
        AT + 60_100,
      );
      marked?.();
      await released;
    });
    await hasMarked;
    await settle([late!], 'won', AT + 60_200);
    expect(await readAfter(start)).toEqual([]);
    expect(await pendingAfter(start)).toBe(0);
    release?.();
    await running;
    expect((await readSettled(start, 2)).map((r) => r.id)).toEqual([early, late]);
    expect(await pendingAfter(start)).toBe(2);
  });
});

const AT = Date.UTC(2026, 0, 5, 12);

/** Pending trades inserted through `insertTrades`; returns their ids in the order given. */
async function seedTrades(
  trades: readonly { userId: string; key: string | null; amountCents?: number }[],
): Promise<string[]> {
  const rows = await database.db.transaction().execute((trx) =>
    insertTrades(
      trx,
      trades.map(({ userId, key, amountCents = 1_000 }) => ({
        id: randomUUID(),
        userId,
        idempotencyKey: key,
        trade: {
          pair: 'BTCUSDT',
          direction: 'UP' as const,
          accountType: 'real' as const,
          amountCents,
          payoutPct: 80,
          entryPrice: 97_000.5,
          entryAtMs: AT - 100,
          entryTickId: null,
          acceptedAtMs: AT,
          expiryAtMs: AT + 60_000,
          durationSec: 60,
          stakeFromCashCents: amountCents,
          stakeFromBonusCents: 0,
        },
      })),
    ),
  );
  expect(rows.map((r) => r.user_id)).toEqual(trades.map((t) => t.userId));
  return rows.map((r) => r.id);
}
