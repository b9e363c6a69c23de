import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DomainError,
  ManualClock,
  Registry,
  type Database,
  type OutboxSourcePosition,
} from '@updown/runtime';
import { createTestDatabase, metricValue, waitFor, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances, openUserAccounts, verifyLedger } from '@updown/wallet';
import { fundUser } from '@updown/wallet/testing';
import {
  createPlaceTrade,
  type PlaceTradeDeps,
  type PlaceTradeRequest,
  type PlaceTradeResult,
} from './place-trade.handler';
import { countOpenedAfter, readOpenedAfter } from './opened-events';

let database: TestDatabase;
let counted: Kysely<Database>;
let statements: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase({ max: 4 });
  counted = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: database.pool }),
    log: (event) => void statements.push(event.query.sql.trim().split(/\s+/).slice(0, 3).join(' ')),
  });
  await sql`update market_pairs set active = false where symbol = 'EURUSD'`.execute(database.db);
});
afterAll(async () => {
  await database.drop();
});

const NOW = Date.UTC(2026, 0, 5, 12);
/** BTCUSDT and EURUSD have a fresh price; GBPUSD's is a minute old. */
const prices = {
  get: (pair: string) =>
    ({ BTCUSDT: { price: 97_000.5, atMs: NOW - 100 }, EURUSD: { price: 1.16, atMs: NOW - 100 } })[pair] ??
    (pair === 'GBPUSD' ? { price: 1.31, atMs: NOW - 60_000 } : undefined),
};

interface Funds {
  readonly real?: number;
  readonly bonus?: number;
  /** The credited amount of an active bonus row, which caps real stakes at 20% of it. */
  readonly activeBonus?: number;
  /** False for a user with funded accounts but no `users` row: its trade insert fails. */
  readonly registered?: boolean;
}

async function trader(funds: Funds): Promise<string> {
  const id = randomUUID();
  if (funds.registered !== false) {
    await sql`insert into users (id, email, name, password_hash)
              values (${id}, ${`${id}@example.com`}, 'Trader', 'x')`.execute(database.db);
  }
  await openUserAccounts(database.db, id);
  await fundUser(database.db, id, { realCents: funds.real, bonusCents: funds.bonus });
  if (funds.activeBonus !== undefined) {
    await sql`insert into bonuses (id, user_id, amount_cents, turnover_required_cents, status, credited_at, expires_at)
              values (${randomUUID()}, ${id}, ${funds.activeBonus}, ${funds.activeBonus * 10}, 'active', now(),
                      now() + interval '30 days')`.execute(database.db);
  }
  return id;
}

function request(
  userId: string,
  amountCents: number,
  more: Partial<PlaceTradeRequest> = {},
): PlaceTradeRequest {
  return {
    userId,
    pair: 'BTCUSDT',
    direction: 'UP',
    amountCents,
    durationSec: 60,
    accountType: 'real',
    ...more,
  };
}

function placer(more: Partial<PlaceTradeDeps> = {}) {
  const registry = new Registry();
  const place = createPlaceTrade({ db: database.db, prices, clock: new ManualClock(NOW), registry, ...more });
  return { place, registry };
}

/**
 * Each answer as the new trade's stake split, `replay <n>` (a replay of the n-th new trade, counted
 * across the calls sharing `trades`), or the refusal's code and text.
 */
async function answers(results: readonly Promise<PlaceTradeResult>[], trades: string[] = []) {
  const settled = await Promise.allSettled(results);
  return settled.map((s) => {
    if (s.status === 'rejected') {
      const error = s.reason as DomainError;
      return error instanceof DomainError ? `${error.code}: ${error.message}` : error;
    }
    const { trade, replayed } = s.value;
    if (!replayed) trades.push(trade.id);
    return replayed
      ? `replay ${trades.indexOf(trade.id)}`
      : `${trade.stake_cash_cents}+${trade.stake_bonus_cents}`;
  });
}

/** How many batches the placer committed, and how many placements they held together. */
async function batches(registry: Registry): Promise<{ count: number; placements: number }> {
  const { values } = await registry.getSingleMetric('updown_placement_batch_size')!.get();
  const value = (suffix: string) =>
    values.find((v) => (v as { metricName?: string }).metricName === `updown_placement_batch_size${suffix}`)!
      .value;
  return { count: value('_count'), placements: value('_sum') };
}

async function expectLedgerClean(): Promise<void> {
  const report = await verifyLedger(database.db);
  expect(report.ok, JSON.stringify(report.violations)).toBe(true);
}

describe('a placement', () => {
  it('costs eight statements: lock the stake accounts, read the terms, lock the book, the stake hold, the trade (its own event), the book', async () => {
    const place = createPlaceTrade({ db: counted, prices, clock: new ManualClock(NOW) });
    const userId = await trader({ real: 10_000 });
    await place(request(userId, 1_000)); // the first one on a connection also prepares its statements
    statements = [];
    const { trade } = await place(request(userId, 1_000));
    expect(statements).toHaveLength(8);
    expect(statements[0]).toMatch(/^begin/i);
    expect(statements[6]).toMatch(/^\s*update risk_pairs/i);
    expect(statements.at(-1)).toMatch(/^commit/i);
    expect(trade).toMatchObject({ stake_cash_cents: 1_000, stake_bonus_cents: 0, status: 'pending' });
    expect(await getUserBalances(database.db, userId)).toMatchObject({ real: 8_000, real_in_play: 2_000 });
  });

  it("holds the engine database's batch on a pooled client directly, with the same answers and writes", async () => {
    const userId = await trader({ real: 10_000 });
    const transaction = vi.spyOn(database.db, 'transaction');
    const checkouts = vi.spyOn(database.pool, 'connect');
    try {
      const { place } = placer();
      const key = randomUUID();
      const [first, second] = await Promise.all([
        place(request(userId, 1_000, { idempotencyKey: key })),
        place(request(userId, 2_000, { direction: 'DOWN' })),
      ]);
      const replay = await place(request(userId, 1_000, { idempotencyKey: key }));
      expect(transaction).not.toHaveBeenCalled();
      expect(checkouts).toHaveBeenCalled();
      expect(replay).toEqual({ trade: first.trade, replayed: true });
      expect(first.trade).toMatchObject({ user_id: userId, amount_cents: 1_000, idempotency_key: key });
      expect(second.trade).toMatchObject({ direction: 'DOWN', amount_cents: 2_000, idempotency_key: null });
      const stored = await database.db
        .selectFrom('trades')
        .selectAll()
        .where('id', 'in', [first.trade.id, second.trade.id])
        .orderBy('amount_cents')
        .execute();
      expect(stored).toEqual([first.trade, second.trade]);
      expect(await getUserBalances(database.db, userId)).toMatchObject({ real: 7_000, real_in_play: 3_000 });
      await expectLedgerClean();
    } finally {
      transaction.mockRestore();
      checkouts.mockRestore();
    }
  });

  it('starts at once when nothing is in flight, and what arrives meanwhile goes as the next batch', async () => {
    const userId = await trader({ real: 10_000 });
    let transactions = 0;
    const db = new Proxy(database.db, {
      get(target, property) {
        if (property === 'transaction') {
          return () => {
            transactions++;
            return target.transaction();
          };
        }
        return Reflect.get(target, property, target) as unknown;
      },
    });
    const { place, registry } = placer({ db });
    const alone = place(request(userId, 1_000));
    // No timer and no I/O callback runs before the batch of one has begun its transaction.
    await Promise.resolve();
    expect(transactions).toBe(1);
    const meanwhile = [place(request(userId, 100)), place(request(userId, 200)), place(request(userId, 300))];
    expect(await answers([alone, ...meanwhile])).toEqual(['1000+0', '100+0', '200+0', '300+0']);
    expect(transactions).toBe(2);
    expect(await batches(registry)).toEqual({ count: 2, placements: 4 });
  });

  it('is refused at once with 503 when queueMax placements already wait, and moves nothing', async () => {
    const userId = await trader({ real: 10_000 });
    const { place, registry } = placer({ queueMax: 2 });
    // One synchronous turn: all three wait for the batch the microtask starts; the third finds two.
    const results = [place(request(userId, 100)), place(request(userId, 200)), place(request(userId, 300))];
    const settled = await Promise.allSettled(results);
    expect(await answers(results)).toEqual([
      '100+0',
      '200+0',
      'ORDER_UNAVAILABLE: Trading is temporarily unavailable, please try again',
    ]);
    expect(settled[2]).toMatchObject({ status: 'rejected', reason: { status: 503 } });
    expect(await metricValue(registry, 'updown_placement_queue_full_total')).toBe(1);
    expect(await getUserBalances(database.db, userId)).toMatchObject({ real: 9_700, real_in_play: 300 });
    // Once the queue has drained, placements are taken again.
    expect(await answers([place(request(userId, 400))])).toEqual(['400+0']);
  });
});

describe('a batch of placements', () => {
  it('answers each placement as it would be answered alone, refusals touching no other answer', async () => {
    const rich = await trader({ real: 10_000 });
    const poor = await trader({ real: 500 });
    const capped = await trader({ bonus: 5_000, activeBonus: 5_000 });
    let commits = 0;
    const { place, registry } = placer({ onCommitted: () => commits++ });
    const results = await answers([
      place(request(rich, 1_000)),
      place(request(poor, 1_000)),
      place(request(rich, 1_000, { pair: 'NOPE' })),
      place(request(rich, 1_000, { pair: 'EURUSD' })),
      place(request(rich, 1_000, { pair: 'GBPUSD' })),
      place(request(rich, 600_000)),
      place(request(capped, 1_001)),
      place(request(capped, 1_000)),
      place(request(poor, 500)),
      place(request(rich, 1_000, { durationSec: 61 })),
      place(request(rich, 99)),
    ]);
    expect(results).toEqual([
      '1000+0',
      'INSUFFICIENT_FUNDS: Insufficient balance',
      'UNKNOWN_PAIR: Unknown pair: NOPE',
      'PAIR_INACTIVE: EURUSD is not available for trading right now',
      'STALE_PRICE: No fresh price for GBPUSD; please try again in a moment',
      'STAKE_OUT_OF_BOUNDS: Maximum trade amount is $5,000.00',
      'STAKE_OUT_OF_BOUNDS: With an active bonus the maximum stake is $10.00',
      '0+1000',
      '500+0',
      'INVALID_DURATION: Duration must be one of 60, 120, 180, 240, 300, 900, 1800, 2700, 3600 seconds',
      'STAKE_OUT_OF_BOUNDS: Minimum trade amount is $1.00',
    ]);
    expect(await batches(registry)).toEqual({ count: 1, placements: 11 });
    expect(await metricValue(registry, 'updown_trades_placed_total')).toBe(3);
    expect(commits).toBe(1);
    // The batch locked its symbols' books before it knew which were pairs: none was made for one
    // that is not.
    const { rows: books } = await sql<{ n: number }>`
      select count(*)::int as n from risk_pairs where pair = 'NOPE'`.execute(database.db);
    expect(books[0]!.n).toBe(0);
    expect(await getUserBalances(database.db, rich)).toMatchObject({ real: 9_000, real_in_play: 1_000 });
    expect(await getUserBalances(database.db, poor)).toMatchObject({ real: 0, real_in_play: 500 });
    expect(await getUserBalances(database.db, capped)).toMatchObject({ bonus: 4_000, bonus_in_play: 1_000 });
    const trades = await database.db
      .selectFrom('trades')
      .select(['id', 'user_id'])
      .where('user_id', 'in', [rich, poor, capped])
      .execute();
    // Each trade row is the outbox of its trades.opened.v1: it carries a publish position, readable
    // once every transaction older than its own (another test's too) has ended.
    expect(trades).toHaveLength(3);
    let events: Awaited<ReturnType<typeof readOpenedAfter>> = [];
    await waitFor(async () => {
      events = await database.db.transaction().execute((trx) => readOpenedAfter(trx, null, 10_000));
      return trades.every((t) => events.some((e) => e.id === t.id));
    });
    expect(new Set(events.map((e) => e.position.seq)).size).toBe(events.length);
    // What the relay's backlog gauge counts for this source: the same rows, up to the cap.
    const pending = (after: OutboxSourcePosition | null, cap: number) =>
      database.db.transaction().execute((trx) => countOpenedAfter(trx, after, cap));
    expect(await pending(null, 10_000)).toBe(events.length);
    expect(await pending(null, 2)).toBe(2);
    expect(await pending(events.at(-1)!.position, 10_000)).toBe(0);
    await expectLedgerClean();
  });

  it("decides one user's placements in arrival order against the running balance, cash then bonus", async () => {
    const userId = await trader({ real: 1_000, bonus: 500 });
    const { place } = placer();
    const amounts = [600, 600, 400, 300, 100];
    expect(await answers(amounts.map((cents) => place(request(userId, cents))))).toEqual([
      '600+0',
      '400+200',
      'INSUFFICIENT_FUNDS: Insufficient balance',
      '0+300',
      'INSUFFICIENT_FUNDS: Insufficient balance',
    ]);
    expect(await getUserBalances(database.db, userId)).toMatchObject({
      real: 0,
      bonus: 0,
      real_in_play: 1_000,
      bonus_in_play: 500,
    });
    await expectLedgerClean();
  });

  it('replays a repeated Idempotency-Key within a batch and across batches, and refuses it for another body', async () => {
    const a = await trader({ real: 5_000 });
    const b = await trader({ real: 5_000 });
    const { place } = placer();
    const up = request(a, 1_000, { idempotencyKey: 'k1' });
    const down = { ...up, direction: 'DOWN' as const };
    const conflict = 'IDEMPOTENCY_CONFLICT: This idempotency key was already used for a different request';
    const placed: string[] = [];
    const first = [
      place(up),
      place(up),
      place(down),
      place(request(b, 1_000, { idempotencyKey: 'k1' })),
      place(request(a, 9_000, { idempotencyKey: 'k2' })),
      place(request(a, 2_000, { idempotencyKey: 'k2' })),
    ];
    expect(await answers(first, placed)).toEqual([
      '1000+0',
      'replay 0',
      conflict,
      '1000+0',
      'INSUFFICIENT_FUNDS: Insufficient balance',
      '2000+0',
    ]);
    const [trade] = await Promise.all(first.slice(0, 2));
    expect((await first[1]!).trade).toEqual(trade!.trade);

    const again = [place(up), place(down), place(request(a, 2_000, { idempotencyKey: 'k2' }))];
    const [k1, , k2] = await Promise.allSettled(again);
    expect(await answers(again, placed)).toEqual(['replay 0', conflict, 'replay 2']);
    expect(k1).toEqual({ status: 'fulfilled', value: { trade: trade!.trade, replayed: true } });
    expect(k2).toEqual({ status: 'fulfilled', value: { trade: (await first[5]!).trade, replayed: true } });
    expect(await getUserBalances(database.db, a)).toMatchObject({ real: 2_000, real_in_play: 3_000 });
    expect(await getUserBalances(database.db, b)).toMatchObject({ real: 4_000, real_in_play: 1_000 });
    await expectLedgerClean();
  });

  it('costs the same nine statements for twenty keyed placements of five users as for one', async () => {
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => trader({ real: 100_000 })));
    const place = createPlaceTrade({ db: counted, prices, clock: new ManualClock(NOW) });
    await place(request(users[0]!, 100, { idempotencyKey: randomUUID() }));
    statements = [];
    await place(request(users[0]!, 100, { idempotencyKey: randomUUID() }));
    const alone = statements;
    statements = [];
    const batch = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        place(request(users[i % 5]!, 100 + i, { idempotencyKey: randomUUID() })),
      ),
    );
    expect(batch.map((r) => r.trade.amount_cents)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
    expect(alone).toHaveLength(9);
    expect(statements).toHaveLength(9);
    await expectLedgerClean();
  });

  it('places a failed batch again one placement at a time, so only the one that broke it fails', async () => {
    const a = await trader({ real: 5_000 });
    const ghost = await trader({ real: 5_000, registered: false });
    const b = await trader({ real: 5_000 });
    const { place, registry } = placer();
    const settled = await Promise.allSettled([
      place(request(a, 1_000)),
      place(request(ghost, 1_000)),
      place(request(b, 1_000)),
      place(request(a, 4_500)),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    // The trade of a user missing from `users` breaks the batch's insert, and then its own alone.
    expect(settled[1]).toMatchObject({ reason: { code: '23503' } });
    expect(settled[3]).toMatchObject({ reason: { code: 'INSUFFICIENT_FUNDS' } });
    expect(await metricValue(registry, 'updown_placement_batch_fallbacks_total')).toBe(1);
    expect(await batches(registry)).toEqual({ count: 1, placements: 4 });
    expect(await getUserBalances(database.db, ghost)).toMatchObject({ real: 5_000, real_in_play: 0 });
    expect(await getUserBalances(database.db, a)).toMatchObject({ real: 4_000, real_in_play: 1_000 });
    await expectLedgerClean();
  });

  it('fails every placement of a batch whose commit failed, placing none of them again', async () => {
    await sql`
      create function refuse_4242() returns trigger language plpgsql as $$
      begin
        if new.amount_cents = 4242 then raise exception 'refused at commit'; end if;
        return null;
      end $$`.execute(database.db);
    await sql`create constraint trigger refuse_4242 after insert on trades deferrable initially deferred
              for each row execute function refuse_4242()`.execute(database.db);
    try {
      const userId = await trader({ real: 10_000 });
      const { place, registry } = placer();
      const settled = await Promise.allSettled([
        place(request(userId, 1_000)),
        place(request(userId, 4_242)),
      ]);
      for (const s of settled) {
        expect(s).toMatchObject({
          status: 'rejected',
          reason: { name: 'CommitFailed', cause: { message: 'refused at commit' } },
        });
      }
      expect(await metricValue(registry, 'updown_placement_batch_fallbacks_total')).toBe(0);
      expect(await getUserBalances(database.db, userId)).toMatchObject({ real: 10_000, real_in_play: 0 });
    } finally {
      await sql`drop trigger refuse_4242 on trades`.execute(database.db);
      await sql`drop function refuse_4242()`.execute(database.db);
    }
  });
});
