import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '@updown/wallet';
import {
  countingDb,
  createHarness,
  pendingCount,
  seedTrades,
  T0,
  waitFor,
  type Harness,
} from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

async function outcomes(ids: readonly string[]): Promise<Record<string, number>> {
  const rows = await h.db
    .selectFrom('trades')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('id', 'in', [...ids])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

describe('an expiry storm', () => {
  it('settles 10,000 trades expiring together in set-based batches: statements do not grow with the trade count', async () => {
    const users = await Promise.all(
      Array.from({ length: 40 }, () => h.newUser({ demo: 100_000_000, real: 100_000_000 })),
    );
    const acceptedAtMs = T0 + 1_000;
    await h.storeTicks([{ pair: 'EURUSD', atMs: acceptedAtMs, price: 1.1 }]);
    const small = await seedTrades(h, { users, count: 1_000, pair: 'EURUSD', acceptedAtMs, entryPrice: 1.1 });
    const large = await seedTrades(h, {
      users,
      count: 10_000,
      pair: 'EURUSD',
      acceptedAtMs: acceptedAtMs + 5_000,
      entryPrice: 1.1,
    });
    await h.storeTicks([{ pair: 'EURUSD', atMs: acceptedAtMs + 59_500, price: 1.2 }]);

    const counter = countingDb(h.database);
    // One owner share, so the statements of one batch after another are counted.
    const service = await h.start({ batchSize: 5_000, sweepIntervalMs: 600_000, partitions: 1 }, counter.db);
    expect(service.scheduled()).toBe(11_000);
    await service.settleDue(); // let the start-up pass finish before counting

    // The first stored tick after an expiry, announced on the bus, is the trigger.
    const settleOn = async (atMs: number, price: number, expected: number) => {
      h.clock.set(atMs);
      counter.reset();
      await h.tick('EURUSD', atMs, price);
      await waitFor(
        async () => (await pendingCount(h.db)) === 11_000 - expected,
        `${expected} settled`,
        30_000,
      );
      await service.settleDue(); // the pass in flight has finished; nothing is left for this one
      return counter.statements();
    };
    // 1,000 trades: one batch.
    const oneBatch = await settleOn(acceptedAtMs + 60_100, 1.15, 1_000);
    // 10,000 trades: two full batches of 5,000 and one that finds nothing left.
    await h.storeTicks([{ pair: 'EURUSD', atMs: acceptedAtMs + 64_900, price: 1.05 }]);
    const started = Date.now();
    const storm = await settleOn(acceptedAtMs + 65_100, 1.0, 11_000);
    console.info(
      `expiry storm: 1,000 trades in ${oneBatch} statements; 10,000 trades in ${storm} statements (${Date.now() - started} ms)`,
    );
    expect(oneBatch).toBeLessThanOrEqual(12);
    expect(storm).toBeLessThanOrEqual(2 * oneBatch + 3);

    expect(await pendingCount(h.db)).toBe(0);
    expect(service.scheduled()).toBe(0);
    // Each group settles on its own exit: 1.2 and 1.05 against the entry 1.1.
    expect(await outcomes(small)).toEqual({ won: 500, lost: 500 });
    expect(await outcomes(large)).toEqual({ won: 5_000, lost: 5_000 }); // DOWN wins on 1.05
    const exits = await h.db
      .selectFrom('trades')
      .select(['exit_price', 'exit_tick_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('id', 'in', large)
      .groupBy(['exit_price', 'exit_tick_id'])
      .execute();
    expect(exits).toHaveLength(1);
    expect(exits[0]).toMatchObject({ exit_price: 1.05, n: 10_000 });
    const report = await verifyLedger(h.db);
    expect(report.violations).toEqual([]);

    // The trades are the outbox of their settled events: a position on each row.
    const positioned = await h.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('settled_seq', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(positioned.n).toBe(11_000);
    await waitFor(() => h.settledEvents.length >= 11_000, '11,000 settled events on the bus', 30_000);
    expect(new Set(h.settledEvents.map((e) => e.payload.tradeId)).size).toBe(11_000);
    await service.stop();
  }, 120_000);
});
