import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Kysely, type Transaction } from 'kysely';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createEvent, eventTopics, type EventOf, type EventTopics } from '@updown/schemas';
import { BusUnavailable } from '../bus/errors';
import { MemoryBus } from '../bus/memory-bus';
import { deferred, metricValue, waitFor } from '../bus/testing/wait-for';
import type { Database } from '../db/schema';
import { createTestDatabase, type TestDatabase } from '../testing';
import { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
import { committedAfter, moveCursor, type OutboxSource } from './outbox-source';
import { OUTBOX_RELAY_LOCK_ID } from './relay-lock';

const logger = pino({ level: 'silent' });

/** A bus stand-in that records what it was given and can be made to fail. */
class RecordingBus {
  readonly published: { topic: string; key: string; id: string }[] = [];
  /** The size of each `publishMany` call, failed ones included. */
  readonly calls: number[] = [];
  failing = false;

  get attempts(): number {
    return this.calls.length;
  }

  async publishMany(
    messages: readonly { topic: string; key: string; event: { id: string } }[],
  ): Promise<void> {
    this.calls.push(messages.length);
    if (this.failing) throw new BusUnavailable('broker unreachable');
    for (const m of messages) this.published.push({ topic: m.topic, key: m.key, id: m.event.id });
  }
}

function tick(pair: string, n: number): EventOf<'market.ticks.v1'> {
  return createEvent(
    'market.ticks.v1',
    { pair, price: 1 + n / 1000, atMs: 1_767_225_600_000 + n },
    { producer: 'test' },
  );
}

/** `count` ticks, the pairs taken in turn. */
const ticks = (count: number, pairs = ['EURUSD', 'BTCUSDT', 'XAUUSD'], from = 0) =>
  Array.from({ length: count }, (_, i) => tick(pairs[(from + i) % pairs.length]!, from + i));

/**
 * A table that is its own outbox, as a product table would be: each row carries its publish
 * position, written by the transaction that inserts it (its id, and a number from the table's
 * sequence), and the source reads the rows after a position with `committedAfter`.
 */
const source: OutboxSource = {
  name: 'source_rows',
  async read(trx, after, limit) {
    // `r.`: ordered by the columns, not by the text outputs of the same names ('10' < '9').
    const { rows } = await sql<{ xact_id: string; seq: string; event: EventOf<'market.ticks.v1'> }>`
      select r.xact_id::text, r.seq::text, r.event from source_rows r
      where ${committedAfter({ xactId: 'r.xact_id', seq: 'r.seq' }, after)}
      order by r.xact_id, r.seq limit ${limit}`.execute(trx);
    return rows.map((row) => ({
      position: { xactId: row.xact_id, seq: row.seq },
      message: { topic: 'market.ticks.v1', key: row.event.payload.pair, event: row.event },
    }));
  },
  async pending(trx, after, cap) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from (
        select 1 from source_rows where ${committedAfter({ xactId: 'xact_id', seq: 'seq' }, after)} limit ${cap}
      ) waiting`.execute(trx);
    return rows[0]!.n;
  },
};

describe('outbox relay over a table that is its own outbox', () => {
  let database: TestDatabase;
  const relays: OutboxRelay[] = [];
  const openRelay = (
    bus: RecordingBus | MemoryBus<EventTopics>,
    options: OutboxRelayOptions = {},
    registry = new Registry(),
  ) => {
    const relay = new OutboxRelay(
      { db: database.db, bus, logger, registry, sources: [source] },
      { pollIntervalMs: 20, retryDelayMsMin: 10, retryDelayMsMax: 50, ...options },
    );
    relays.push(relay);
    return relay;
  };
  /** Inserts the events as rows of the source with one statement, in order; returns their ids. */
  const insert = async (db: Kysely<Database>, events: readonly EventOf<'market.ticks.v1'>[]) => {
    // No `order by`: the sequence's default would be drawn before the sort. unnest keeps the order.
    await sql`insert into source_rows (event) select e::jsonb from unnest(${events.map((e) =>
      JSON.stringify(e),
    )}::text[]) as e`.execute(db);
    return events.map((e) => e.id);
  };
  /**
   * Waits until the source reads `count` rows from its start. The snapshot's xmin is the whole
   * server's: a transaction still open in another database (another test file's) holds the rows
   * back until it ends, so a test that needs them readable before it goes on waits for them.
   */
  const readable = (count: number) =>
    waitFor(
      async () =>
        (await database.db.transaction().execute((trx) => source.read(trx, null, 10_000))).length >= count,
      { what: `${count} rows past every running transaction` },
    );
  const cursorSeq = async () =>
    (
      await sql<{
        seq: string;
      }>`select seq::text from outbox_cursors where source = ${source.name}`.execute(database.db)
    ).rows[0]?.seq;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await sql`drop table if exists source_rows`.execute(database.db);
    await sql`create table source_rows (
      seq bigserial, xact_id xid8 not null default pg_current_xact_id(), event jsonb not null)`.execute(
      database.db,
    );
    await sql`delete from outbox_cursors`.execute(database.db);
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });

  it('publishes the committed rows once each, in order, across passes, moving the cursor, and counts them', async () => {
    const bus = new RecordingBus();
    const registry = new Registry();
    const first = await insert(database.db, ticks(5));
    const relay = openRelay(bus, { batchSize: 3 }, registry);
    relay.start();
    await waitFor(() => bus.published.length === 5, { what: '5 events' });
    expect(bus.published.map((p) => p.key)).toEqual(['EURUSD', 'BTCUSDT', 'XAUUSD', 'EURUSD', 'BTCUSDT']);
    const second = await insert(database.db, ticks(4, ['EURUSD'], 10));
    relay.kick();
    await waitFor(() => bus.published.length === 9, { what: '9 events' });
    await sleep(100); // more passes: nothing is published twice
    expect(bus.published.map((p) => p.id)).toEqual([...first, ...second]);
    expect(await cursorSeq()).toBe('9');
    expect(await metricValue(registry, 'updown_outbox_relayed_total', { topic: 'market.ticks.v1' })).toBe(9);
  });

  it('never publishes the rows of a rolled-back transaction', async () => {
    const bus = new RecordingBus();
    await expect(
      database.db.transaction().execute(async (trx) => {
        await insert(trx, ticks(3));
        throw new Error('business rule failed after the rows were written');
      }),
    ).rejects.toThrow(/business rule/);
    const committed = await insert(database.db, ticks(1, ['EURUSD'], 100));
    openRelay(bus).start();
    await waitFor(() => bus.published.length === 1, { what: 'the committed row' });
    await sleep(100);
    expect(bus.published.map((p) => p.id)).toEqual(committed);
  });

  it('never moves past a row whose transaction is still running, even when a later one committed first', async () => {
    const bus = new RecordingBus();
    const [early] = ticks(1, ['EURUSD'], 30);
    const [late] = ticks(1, ['EURUSD'], 31);
    const released = deferred();
    const written = deferred();
    // The earlier transaction draws its id and sequence number first and commits last.
    const slow = database.db.transaction().execute(async (trx) => {
      await insert(trx, [early!]);
      written.resolve();
      await released.promise;
    });
    await written.promise;
    await insert(database.db, [late!]);
    openRelay(bus).start();
    await sleep(150);
    expect(bus.published).toEqual([]); // the later row waits for the earlier transaction
    released.resolve();
    await slow;
    await waitFor(() => bus.published.length === 2, { what: 'both rows' });
    expect(bus.published.map((p) => p.id)).toEqual([early!.id, late!.id]);
  });

  it('keeps its cursor while the bus fails, and publishes the same rows once it is back', async () => {
    const bus = new RecordingBus();
    bus.failing = true;
    const registry = new Registry();
    const ids = await insert(database.db, ticks(3));
    openRelay(bus, {}, registry).start();
    await waitFor(() => bus.attempts >= 3, { what: 'three failed passes' });
    expect(bus.published).toEqual([]);
    expect(await cursorSeq()).toBeUndefined();
    expect(await metricValue(registry, 'updown_outbox_publish_failures_total')).toBeGreaterThanOrEqual(3);
    // A failed batch is tried again whole, after a backoff: never row by row.
    expect(new Set(bus.calls)).toEqual(new Set([3]));

    bus.failing = false;
    await waitFor(() => bus.published.length === 3, { what: 'the rows after recovery' });
    expect(bus.published.map((p) => p.id)).toEqual(ids);
    await waitFor(async () => (await cursorSeq()) === '3', { what: 'the cursor past them' });
  });

  it("publishes a pass's rows in one call", async () => {
    const bus = new RecordingBus();
    const ids = await insert(database.db, ticks(6));
    openRelay(bus).start();
    await waitFor(() => bus.published.length === 6, { what: 'all rows' });
    expect(bus.calls).toEqual([6]);
    expect(bus.published.map((p) => p.id)).toEqual(ids);
  });

  it('with two relays running, publishes each row exactly once and in order', async () => {
    const bus = new RecordingBus();
    const ids: string[] = [];
    const first = openRelay(bus, { batchSize: 7 });
    const second = openRelay(bus, { batchSize: 7 });
    first.start();
    second.start();
    for (let t = 0; t < 30; t++) {
      ids.push(...(await insert(database.db, ticks(10, ['EURUSD', 'GBPUSD', 'USDJPY', 'BTCUSDT'], t * 10))));
      if (t % 3 === 0) (t % 2 === 0 ? first : second).kick();
    }
    await waitFor(() => bus.published.length >= 300, { timeoutMs: 10_000, what: '300 events' });
    await Promise.all([first.stop(), second.stop()]);
    expect(bus.published.map((p) => p.id)).toEqual(ids);
    expect(await cursorSeq()).toBe('300');
  });

  it('publishes to a real bus: subscribers receive the events in order', async () => {
    const registry = new Registry();
    const bus = new MemoryBus({ topics: eventTopics, logger, registry });
    const received: string[] = [];
    await bus.subscribe('market.ticks.v1', 'settlement', async (event) => void received.push(event.id));
    const ids = await insert(database.db, ticks(12));
    openRelay(bus).start();
    await waitFor(() => received.length === 12, { what: '12 events at the subscriber' });
    expect([...received].sort()).toEqual([...ids].sort());
    // One key, one partition: each pair's ticks arrive in the order they were written.
    const eurusd = ids.filter((_, i) => i % 3 === 0);
    expect(received.filter((id) => eurusd.includes(id))).toEqual(eurusd);
    await bus.close();
  });

  it('wakes at once on kick() instead of waiting for the next poll', async () => {
    const bus = new RecordingBus();
    const relay = openRelay(bus, { pollIntervalMs: 60_000 });
    const first = await insert(database.db, ticks(1));
    // Readable before the first pass: a pass that found it held back would sleep for the minute.
    await readable(1);
    relay.start();
    // Once the first row is out, the relay is asleep for a minute unless kicked.
    await waitFor(() => bus.published.length === 1, { what: 'the first pass' });
    const ids = await insert(database.db, ticks(2, ['EURUSD'], 1));
    await readable(3);
    relay.kick();
    await waitFor(() => bus.published.length === 3, { timeoutMs: 2_000, what: 'the kicked relay' });
    expect(bus.published.map((p) => p.id)).toEqual([...first, ...ids]);
  });

  it('tries again soon after finding another relay holding the lock, not after its long poll', async () => {
    const bus = new RecordingBus();
    const relay = openRelay(bus, { pollIntervalMs: 60_000, lockedRetryMs: 20 });
    const released = deferred();
    const held = deferred();
    // Another relay's pass, as far as this one can tell: the relay lock held by an open transaction.
    const otherPass = database.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${OUTBOX_RELAY_LOCK_ID}::bigint)`.execute(trx);
      held.resolve();
      await released.promise;
    });
    await held.promise;
    relay.start();
    const ids = await insert(database.db, ticks(2));
    await readable(2);
    await sleep(100);
    expect(bus.published).toEqual([]); // the lock is taken: nothing can be published yet
    released.resolve();
    await otherPass;
    // Not kicked, and its poll is a minute away: only the short retry can publish these.
    await waitFor(() => bus.published.length === 2, { timeoutMs: 2_000, what: 'the retry after the lock' });
    expect(bus.published.map((p) => p.id)).toEqual(ids);
  });

  it('moves the cursor without waiting for the disk, in the pass only', async () => {
    await insert(database.db, ticks(2, ['EURUSD'], 50));
    await readable(2);
    const [inside, after] = await synchronousCommitAround(database.db, async (trx) => {
      const rows = await source.read(trx, null, 10);
      await moveCursor(trx, source.name, rows.at(-1)!.position);
    });
    expect(inside).toBe('off');
    expect(after).toBe('on');
  });

  it('reports as its backlog the committed rows waiting after the cursor, and 0 once they are published', async () => {
    const bus = new RecordingBus();
    const registry = new Registry();
    const relay = openRelay(bus, { backlogIntervalMs: 10 }, registry);
    await insert(database.db, ticks(2));
    relay.start();
    await waitFor(async () => (await cursorSeq()) === '2', { what: 'the first rows out' });

    bus.failing = true;
    await insert(database.db, ticks(3, ['EURUSD'], 10));
    // Only the rows after the cursor wait; the two published before them do not count.
    await waitFor(async () => (await metricValue(registry, 'updown_outbox_backlog')) === 3, {
      what: 'a backlog of 3',
    });

    bus.failing = false;
    await waitFor(() => bus.published.length === 5, { what: 'the waiting rows' });
    await waitFor(async () => (await metricValue(registry, 'updown_outbox_backlog')) === 0, {
      what: 'no backlog once they are published',
    });
  });
});

/**
 * `synchronous_commit` inside a transaction running `work` and in its session afterwards, on one
 * connection whose session has it on first (the test server runs with it off), so the check after
 * the commit reads the session the transaction ran in.
 */
async function synchronousCommitAround(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<void>,
): Promise<readonly [string, string]> {
  const show = async (db: Kysely<Database>) =>
    (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]!
      .synchronous_commit;
  return db.connection().execute(async (conn) => {
    await sql`set synchronous_commit = on`.execute(conn);
    const inside = await conn.transaction().execute(async (trx) => {
      await work(trx);
      return show(trx);
    });
    const after = await show(conn);
    await sql`reset synchronous_commit`.execute(conn);
    return [inside, after] as const;
  });
}
