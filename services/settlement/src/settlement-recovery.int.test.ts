import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent } from '@updown/schemas';
import { verifyLedger } from '@updown/wallet';
import { createHarness, pendingCount, seedTrades, sql, waitFor, type Harness } from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

/** For the given trades: how many are still pending, settlement ledger entries, and events to publish per trade. */
async function exactlyOnce(ids: readonly string[]) {
  const { rows } = await sql<{ pending: number; entries: number; events: number; duplicated: number }>`
    with ids as (select unnest(${[...ids]}::uuid[]) as id),
    entries as (
      select i.id, count(e.id) as n from ids i
      left join ledger_entries e on e.idempotency_key = 'trade:' || i.id || ':settle'
      group by i.id
    ),
    events as (
      -- A settled trade's event is its row's publish position (the trades table is its outbox).
      select i.id, count(t.settled_seq) as n from ids i
      left join trades t on t.id = i.id
      group by i.id
    ),
    per_trade as (select id, entries.n as entries, events.n as events from entries join events using (id))
    select (select count(*)::int from trades t join ids using (id) where t.status = 'pending') as pending,
           sum(entries)::int as entries, sum(events)::int as events,
           count(*) filter (where entries <> 1 or events <> 1)::int as duplicated
    from per_trade`.execute(h.db);
  return rows[0]!;
}

async function relayed(ids: readonly string[]) {
  const wanted = new Set(ids);
  await waitFor(
    () =>
      new Set(h.settledEvents.map((e) => e.payload.tradeId).filter((id) => wanted.has(id))).size ===
      wanted.size,
    'every settled event on the bus',
  );
  const mine = h.settledEvents.filter((e) => wanted.has(e.payload.tradeId));
  return { events: mine.length, distinct: new Set(mine.map((e) => e.payload.tradeId)).size };
}

async function placeMany(count: number): Promise<string[]> {
  const now = h.clock.nowMs();
  await h.tick('EURUSD', now, 1.1);
  await h.tick('BTCUSDT', now, 95_000);
  const users = await Promise.all(
    Array.from({ length: 5 }, () => h.newUser({ demo: 1_000_000, real: 1_000_000 })),
  );
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const trade = await h.place({
      userId: users[i % users.length]!,
      pair: i % 2 === 0 ? 'EURUSD' : 'BTCUSDT',
      direction: i % 3 === 0 ? 'UP' : 'DOWN',
      amountCents: 100 + i,
      accountType: i % 4 === 0 ? 'real' : 'demo',
      durationSec: i % 5 === 0 ? 120 : 60,
    });
    ids.push(trade.id);
  }
  return ids;
}

describe('exactly once across restarts and redelivery', () => {
  it('a new instance settles trades placed before the old one stopped, before their expiry', async () => {
    const first = await h.start();
    const ids = await placeMany(60);
    await waitFor(() => first.scheduled() === 60, 'the opened events to reach the schedule');
    await first.stop();

    const second = await h.start();
    expect(second.scheduled()).toBe(60);
    const t = h.clock.nowMs();
    h.clock.set(t + 60_000);
    await h.tick('EURUSD', t + 59_000, 1.2);
    await h.tick('BTCUSDT', t + 59_000, 94_000);
    h.clock.set(t + 121_000);
    await h.tick('EURUSD', t + 120_500, 1.0);
    await h.tick('BTCUSDT', t + 120_500, 96_000);
    await waitFor(async () => (await pendingCount(h.db)) === 0, 'every trade settled');
    expect(await exactlyOnce(ids)).toEqual({ pending: 0, entries: 60, events: 60, duplicated: 0 });
    expect(await relayed(ids)).toEqual({ events: 60, distinct: 60 });
    expect((await verifyLedger(h.db)).violations).toEqual([]);
    await second.stop();
  });

  it('a new instance settles, on the price in force at expiry, trades that expired while nothing ran', async () => {
    const first = await h.start();
    const ids = await placeMany(40);
    const t = h.clock.nowMs();
    await first.stop();
    // The feed kept running while settlement was down.
    await h.storeTicks([
      { pair: 'EURUSD', atMs: t + 59_900, price: 1.3 },
      { pair: 'EURUSD', atMs: t + 60_100, price: 0.9 },
      { pair: 'EURUSD', atMs: t + 119_900, price: 1.4 },
      { pair: 'EURUSD', atMs: t + 120_100, price: 0.8 },
      { pair: 'BTCUSDT', atMs: t + 59_900, price: 90_000 },
      { pair: 'BTCUSDT', atMs: t + 120_100, price: 99_000 },
    ]);
    h.clock.set(t + 600_000);

    const second = await h.start();
    await waitFor(async () => (await pendingCount(h.db)) === 0, 'every overdue trade settled at start');
    expect(await exactlyOnce(ids)).toEqual({ pending: 0, entries: 40, events: 40, duplicated: 0 });
    const exits = await h.db
      .selectFrom('trades')
      .select(['pair', 'duration_sec', 'exit_price', 'status'])
      .where('id', 'in', ids)
      .execute();
    for (const trade of exits) {
      if (trade.pair === 'EURUSD') expect(trade.exit_price).toBe(trade.duration_sec === 60 ? 1.3 : 1.4);
      // BTCUSDT's 120 s trades have no tick in the 10 s before expiry: void.
      else if (trade.duration_sec === 60) expect(trade.exit_price).toBe(90_000);
      else expect(trade).toMatchObject({ status: 'void', exit_price: null });
    }
    expect(await relayed(ids)).toEqual({ events: 40, distinct: 40 });
    expect((await verifyLedger(h.db)).violations).toEqual([]);
    await second.stop();
  });

  it('a stop in the middle of a storm commits the batch in flight and the next instance settles the rest once', async () => {
    const users = await Promise.all(
      Array.from({ length: 10 }, () => h.newUser({ demo: 10_000_000, real: 10_000_000 })),
    );
    const t = h.clock.nowMs();
    await h.storeTicks([{ pair: 'ETHUSD', atMs: t, price: 3_000 }]);
    const ids = await seedTrades(h, {
      users,
      count: 3_000,
      pair: 'ETHUSD',
      acceptedAtMs: t,
      entryPrice: 3_000,
    });
    const first = await h.start({ batchSize: 100 });
    await h.storeTicks([{ pair: 'ETHUSD', atMs: t + 59_000, price: 3_100 }]);
    h.clock.set(t + 60_500);
    await h.tick('ETHUSD', t + 60_500, 2_900);
    await waitFor(async () => (await pendingCount(h.db)) < 3_000, 'the first batch to commit');
    await first.stop();
    const left = await pendingCount(h.db);
    expect(left).toBeGreaterThan(0);

    // Two instances at once on the same database: they contend for the same rows.
    const second = await h.start({ batchSize: 100 });
    const third = await h.start({ batchSize: 150 });
    await Promise.all([second.settleDue(), third.settleDue(), second.settleDue()]);
    await waitFor(async () => (await pendingCount(h.db)) === 0, 'the rest settled');
    expect(await exactlyOnce(ids)).toEqual({ pending: 0, entries: 3_000, events: 3_000, duplicated: 0 });
    expect(await relayed(ids)).toEqual({ events: 3_000, distinct: 3_000 });
    expect((await verifyLedger(h.db)).violations).toEqual([]);
    await Promise.all([second.stop(), third.stop()]);
  }, 120_000);

  it('settles a trade whose trades.opened.v1 is delivered twice (and again afterwards) exactly once', async () => {
    const service = await h.start();
    const user = await h.newUser({ demo: 100_000 });
    const t = h.clock.nowMs();
    await h.tick('GBPUSD', t, 1.3);
    const trade = await h.place({
      userId: user,
      pair: 'GBPUSD',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    const opened = createEvent(
      'trades.opened.v1',
      {
        tradeId: trade.id,
        userId: user,
        pair: 'GBPUSD',
        direction: 'UP',
        amountCents: 1_000,
        payoutPct: trade.payout_pct,
        entryPrice: trade.entry_price,
        entryAtMs: trade.entry_at_ms,
        expiryAtMs: trade.expiry_at_ms,
        accountType: 'demo',
        openedAtMs: trade.accepted_at_ms,
      },
      { producer: 'order', id: randomUUID() },
    );
    await h.bus.publish('trades.opened.v1', 'GBPUSD', opened);
    await h.bus.publish('trades.opened.v1', 'GBPUSD', opened);
    await waitFor(() => service.scheduled() === 1, 'the trade scheduled once');
    h.clock.set(t + 59_000);
    await h.tick('GBPUSD', t + 59_000, 1.31);
    h.clock.set(t + 60_200);
    await h.tick('GBPUSD', t + 60_200, 1.29);
    await waitFor(async () => (await h.trade(trade.id)).status !== 'pending', 'the trade settled');
    expect((await h.trade(trade.id)).status).toBe('won');

    // A late copy after settlement changes nothing.
    await h.bus.publish('trades.opened.v1', 'GBPUSD', opened);
    await new Promise((resolve) => setTimeout(resolve, 50)); // delivered on a later microtask
    await service.settleDue();
    expect(service.scheduled()).toBe(0);
    expect(await exactlyOnce([trade.id])).toEqual({ pending: 0, entries: 1, events: 1, duplicated: 0 });
    expect(await h.balances(user)).toMatchObject({ demo: 100_000 + 800, demo_in_play: 0 });
    await service.stop();
  });
});
