import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Kysely, type Transaction } from 'kysely';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createEvent, eventTopics, type EventOf, type EventTopics, type TopicName } from '@updown/schemas';
import { BusUnavailable, InvalidEvent } from '../bus/errors';
import { MemoryBus } from '../bus/memory-bus';
import { metricValue, waitFor } from '../bus/testing/wait-for';
import type { Database } from '../db/schema';
import { createTestDatabase, type TestDatabase } from '../testing';
import { enqueueEvent } from './enqueue-event';
import { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
import { committedAfter, moveCursor, type OutboxSource } from './outbox-source';
import { claimUnpublished, markPublished, OUTBOX_RELAY_LOCK_ID } from './outbox.repository';

const logger = pino({ level: 'silent' });

/** A bus stand-in that records what it was given and can be made to fail. */
class RecordingBus {
  readonly published: { topic: string; key: string; id: string }[] = [];
  /** The size of each `publishMany` call, failed ones included. */
  readonly calls: number[] = [];
  failing = false;
  /** Fails the call it is given (its size and its 1-based number) when it returns true. */
  failWhen: ((size: number, call: number) => boolean) | undefined;

  get attempts(): number {
    return this.calls.length;
  }

  async publishMany(
    messages: readonly { topic: string; key: string; event: { id: string } }[],
  ): Promise<void> {
    this.calls.push(messages.length);
    if (this.failing || this.failWhen?.(messages.length, this.calls.length)) {
      throw new BusUnavailable('broker unreachable');
    }
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

describe('transactional outbox and relay', () => {
  let database: TestDatabase;
  const relays: OutboxRelay[] = [];
  const openRelay = (
    bus: RecordingBus | MemoryBus<EventTopics>,
    options: OutboxRelayOptions = {},
    registry = new Registry(),
  ) => {
    const relay = new OutboxRelay(
      { db: database.db, bus, logger, registry },
      { pollIntervalMs: 20, retryDelayMsMin: 10, retryDelayMsMax: 50, ...options },
    );
    relays.push(relay);
    return relay;
  };
  /** Writes the events in one committed transaction, in order; returns their ids. */
  const commit = async (events: { topic: TopicName; key: string; event: EventOf<'market.ticks.v1'> }[]) => {
    await database.db.transaction().execute(async (trx) => {
      for (const e of events) await enqueueEvent(trx, 'market.ticks.v1', e.key, e.event);
    });
    return events.map((e) => e.event.id);
  };
  const ticks = (count: number, pairs = ['EURUSD', 'BTCUSDT', 'XAUUSD'], from = 0) =>
    Array.from({ length: count }, (_, i) => {
      const pair = pairs[(from + i) % pairs.length]!;
      return { topic: 'market.ticks.v1' as const, key: pair, event: tick(pair, from + i) };
    });
  const unpublishedCount = async () =>
    (
      await sql<{ n: number }>`select count(*)::int as n from outbox where published_at is null`.execute(
        database.db,
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await sql`truncate outbox restart identity`.execute(database.db);
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });

  it('relays the events of a committed transaction in order and marks them published', async () => {
    const bus = new RecordingBus();
    const registry = new Registry();
    const ids = await commit(ticks(5));
    openRelay(bus, {}, registry).start();
    await waitFor(() => bus.published.length === 5, { what: '5 events' });
    expect(bus.published.map((p) => p.id)).toEqual(ids);
    expect(bus.published.map((p) => p.key)).toEqual(['EURUSD', 'BTCUSDT', 'XAUUSD', 'EURUSD', 'BTCUSDT']);
    await waitFor(async () => (await unpublishedCount()) === 0, { what: 'rows to be marked' });
    expect(await metricValue(registry, 'updown_outbox_relayed_total', { topic: 'market.ticks.v1' })).toBe(5);
  });

  it('marks rows published without waiting for the disk, in that transaction only', async () => {
    await commit(ticks(2));
    const [inside, after] = await synchronousCommitAround(database.db, async (trx) => {
      const rows = await claimUnpublished(trx, 10);
      await markPublished(
        trx,
        rows.map((row) => row.id),
        new Date(),
      );
    });
    expect(inside).toBe('off');
    expect(after).toBe('on');
    expect(await unpublishedCount()).toBe(0);
  });

  it('never publishes the events of a rolled-back transaction', async () => {
    const bus = new RecordingBus();
    const rolledBack = ticks(3);
    await expect(
      database.db.transaction().execute(async (trx) => {
        for (const e of rolledBack) await enqueueEvent(trx, e.topic, e.key, e.event);
        throw new Error('business rule failed after the events were written');
      }),
    ).rejects.toThrow(/business rule/);
    const committed = await commit(ticks(1, ['EURUSD'], 100));
    openRelay(bus).start();
    await waitFor(() => bus.published.length === 1, { what: 'the committed event' });
    expect(bus.published.map((p) => p.id)).toEqual(committed);
    expect((await database.db.selectFrom('outbox').select('id').execute()).length).toBe(1);
  });

  it('leaves rows unpublished while the bus fails, then relays them after it recovers', async () => {
    const bus = new RecordingBus();
    bus.failing = true;
    const registry = new Registry();
    const ids = await commit(ticks(3));
    openRelay(bus, {}, registry).start();
    // Each failed pass tries the batch, then its first row alone.
    await waitFor(() => bus.attempts >= 6, { what: 'three failed passes' });
    expect(bus.published).toEqual([]);
    expect(await unpublishedCount()).toBe(3);
    expect(await metricValue(registry, 'updown_outbox_publish_failures_total')).toBeGreaterThanOrEqual(3);

    bus.failing = false;
    await waitFor(() => bus.published.length === 3, { what: 'relay after recovery' });
    expect(bus.published.map((p) => p.id)).toEqual(ids);
    await waitFor(async () => (await unpublishedCount()) === 0);
  });

  it("publishes a pass's rows in one call", async () => {
    const bus = new RecordingBus();
    const ids = await commit(ticks(6));
    openRelay(bus).start();
    await waitFor(() => bus.published.length === 6, { what: 'all rows' });
    expect(bus.calls).toEqual([6]);
    expect(bus.published.map((p) => p.id)).toEqual(ids);
  });

  it('when a batch fails, keeps the rows before the failing one, and resumes after them without duplicates', async () => {
    const bus = new RecordingBus();
    // The batch fails, then the third row alone fails once: the first two go out one by one.
    bus.failWhen = (size, call) => size > 1 || call === 4;
    const ids = await commit(ticks(6));
    openRelay(bus).start();
    await waitFor(() => bus.published.length === 6, { what: 'all rows' });
    expect(bus.published.map((p) => p.id)).toEqual(ids);
    // The batch of 6, rows 1 and 2 alone, row 3 failing; next pass the batch of 4 fails, then 4 alone.
    expect(bus.calls).toEqual([6, 1, 1, 1, 4, 1, 1, 1, 1]);
  });

  it('with two relays running, publishes each event exactly once and in order', async () => {
    const bus = new RecordingBus();
    const ids: string[] = [];
    const first = openRelay(bus, { batchSize: 7 });
    const second = openRelay(bus, { batchSize: 7 });
    first.start();
    second.start();
    for (let t = 0; t < 30; t++) {
      ids.push(...(await commit(ticks(10, ['EURUSD', 'GBPUSD', 'USDJPY', 'BTCUSDT'], t * 10))));
      if (t % 3 === 0) (t % 2 === 0 ? first : second).kick();
    }
    await waitFor(() => bus.published.length >= 300, { timeoutMs: 10_000, what: '300 events' });
    await Promise.all([first.stop(), second.stop()]);
    expect(bus.published.map((p) => p.id)).toEqual(ids);
    expect(await unpublishedCount()).toBe(0);
  });

  it('publishes to a real bus: subscribers receive the events in order', async () => {
    const registry = new Registry();
    const bus = new MemoryBus({ topics: eventTopics, logger, registry });
    const received: string[] = [];
    await bus.subscribe('market.ticks.v1', 'settlement', async (event) => void received.push(event.id));
    const ids = await commit(ticks(12));
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
    const [first] = await commit(ticks(1));
    relay.start();
    // Once the first row is out, the relay is asleep for a minute unless kicked.
    await waitFor(() => bus.published.length === 1, { what: 'the first pass' });
    const ids = await commit(ticks(2, ['EURUSD'], 1));
    relay.kick();
    await waitFor(() => bus.published.length === 3, { timeoutMs: 2_000, what: 'the kicked relay' });
    expect(bus.published.map((p) => p.id)).toEqual([first, ...ids]);
  });

  it('tries again soon after finding another relay holding the lock, not after its long poll', async () => {
    const bus = new RecordingBus();
    const relay = openRelay(bus, { pollIntervalMs: 60_000, lockedRetryMs: 20 });
    let release: (() => void) | undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held: (() => void) | undefined;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // Another relay's pass, as far as this one can tell: the relay lock held by an open transaction.
    const otherPass = database.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${OUTBOX_RELAY_LOCK_ID}::bigint)`.execute(trx);
      held?.();
      await released;
    });
    await holding;
    relay.start();
    const ids = await commit(ticks(2));
    await sleep(100);
    expect(bus.published).toEqual([]); // the lock is taken: nothing can be published yet
    release?.();
    await otherPass;
    // Not kicked, and its poll is a minute away: only the short retry can publish these.
    await waitFor(() => bus.published.length === 2, { timeoutMs: 2_000, what: 'the retry after the lock' });
    expect(bus.published.map((p) => p.id)).toEqual(ids);
  });

  describe('a table that is its own outbox (OutboxSource)', () => {
    /** A table that carries its own publish position, written by the transaction that inserts each row. */
    beforeEach(async () => {
      await sql`drop table if exists source_rows`.execute(database.db);
      await sql`create table source_rows (
        seq bigserial, xact_id xid8 not null default pg_current_xact_id(), event jsonb not null)`.execute(
        database.db,
      );
      await sql`delete from outbox_cursors`.execute(database.db);
    });
    const source: OutboxSource = {
      name: 'source_rows',
      async read(trx, after, limit) {
        const { rows } = await sql<{ xact_id: string; seq: string; event: EventOf<'market.ticks.v1'> }>`
          select xact_id::text, seq::text, event from source_rows
          where ${committedAfter({ xactId: 'xact_id', seq: 'seq' }, after)}
          order by xact_id, seq limit ${limit}`.execute(trx);
        return rows.map((row) => ({
          position: { xactId: row.xact_id, seq: row.seq },
          message: { topic: 'market.ticks.v1', key: row.event.payload.pair, event: row.event },
        }));
      },
    };
    const insert = (trx: Kysely<Database>, events: readonly EventOf<'market.ticks.v1'>[]) =>
      sql`insert into source_rows (event) select e::jsonb from unnest(${events.map((e) =>
        JSON.stringify(e),
      )}::text[]) as e`.execute(trx);
    const openSourceRelay = (bus: RecordingBus, options: OutboxRelayOptions = {}) => {
      const relay = new OutboxRelay(
        { db: database.db, bus, logger, registry: new Registry(), sources: [source] },
        { pollIntervalMs: 20, retryDelayMsMin: 10, retryDelayMsMax: 50, ...options },
      );
      relays.push(relay);
      return relay;
    };

    it('publishes its committed rows after the outbox rows of the pass, once, in order, across passes', async () => {
      const bus = new RecordingBus();
      const fromOutbox = await commit(ticks(2));
      const first = ticks(5, ['EURUSD'], 10).map((t) => t.event);
      await insert(database.db, first);
      const relay = openSourceRelay(bus, { batchSize: 3 });
      relay.start();
      await waitFor(() => bus.published.length === 7, { what: '7 events' });
      const second = ticks(4, ['EURUSD'], 20).map((t) => t.event);
      await insert(database.db, second);
      relay.kick();
      await waitFor(() => bus.published.length === 11, { what: '11 events' });
      await sleep(100); // more passes: nothing is published twice
      expect(bus.published.map((p) => p.id)).toEqual([
        ...fromOutbox,
        ...[...first, ...second].map((e) => e.id),
      ]);
      const cursor = await sql<{
        seq: string;
      }>`select seq::text from outbox_cursors where source = 'source_rows'`.execute(database.db);
      expect(cursor.rows).toEqual([{ seq: '9' }]);
    });

    it('never moves past a row whose transaction is still running, even when a later one committed first', async () => {
      const bus = new RecordingBus();
      const early = ticks(1, ['EURUSD'], 30)[0]!.event;
      const late = ticks(1, ['EURUSD'], 31)[0]!.event;
      let release: (() => void) | undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let wrote: (() => void) | undefined;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      // The earlier transaction draws its id and sequence number first and commits last.
      const slow = database.db.transaction().execute(async (trx) => {
        await insert(trx, [early]);
        wrote?.();
        await released;
      });
      await written;
      await insert(database.db, [late]);
      openSourceRelay(bus).start();
      await sleep(150);
      expect(bus.published).toEqual([]); // the later row waits for the earlier transaction
      release?.();
      await slow;
      await waitFor(() => bus.published.length === 2, { what: 'both rows' });
      expect(bus.published.map((p) => p.id)).toEqual([early.id, late.id]);
    });

    it('moves the cursor without waiting for the disk, in the pass only', async () => {
      await insert(
        database.db,
        ticks(2, ['EURUSD'], 50).map((t) => t.event),
      );
      // The snapshot's xmin is the whole server's: a transaction still open in another database
      // (another test file's) keeps the rows back until it ends.
      await waitFor(
        async () =>
          (await database.db.transaction().execute((trx) => source.read(trx, null, 10))).length === 2,
        { what: 'the rows past every running transaction' },
      );
      const [inside, after] = await synchronousCommitAround(database.db, async (trx) => {
        const rows = await source.read(trx, null, 10);
        await moveCursor(trx, source.name, rows.at(-1)!.position);
      });
      expect(inside).toBe('off');
      expect(after).toBe('on');
    });

    it('keeps its cursor when publishing fails, and publishes the same rows once the bus is back', async () => {
      const bus = new RecordingBus();
      bus.failing = true;
      const events = ticks(3, ['EURUSD'], 40).map((t) => t.event);
      await insert(database.db, events);
      openSourceRelay(bus).start();
      await waitFor(() => bus.attempts >= 3, { what: 'failed passes' });
      const cursor = await sql`select 1 from outbox_cursors where source = 'source_rows'`.execute(
        database.db,
      );
      expect(cursor.rows).toEqual([]);
      bus.failing = false;
      await waitFor(() => bus.published.length === 3, { what: 'the rows after recovery' });
      expect(bus.published.map((p) => p.id)).toEqual(events.map((e) => e.id));
    });
  });

  it('deletes published rows once they are past retention, and reports the backlog', async () => {
    const bus = new RecordingBus();
    bus.failing = true;
    const registry = new Registry();
    await commit(ticks(4));
    const relay = openRelay(bus, { retentionMs: 0, cleanupIntervalMs: 10, backlogIntervalMs: 10 }, registry);
    relay.start();
    await waitFor(async () => (await metricValue(registry, 'updown_outbox_backlog')) === 4, {
      what: 'backlog of 4',
    });
    bus.failing = false;
    await waitFor(async () => (await database.db.selectFrom('outbox').select('id').execute()).length === 0, {
      what: 'published rows to be deleted',
    });
    await waitFor(async () => (await metricValue(registry, 'updown_outbox_backlog')) === 0, {
      what: 'empty backlog',
    });
    expect(await metricValue(registry, 'updown_outbox_deleted_total')).toBe(4);
  });

  it('refuses to enqueue an invalid event, with a typed error, and writes nothing', async () => {
    const invalid = { ...tick('EURUSD', 1), payload: { pair: 'EURUSD', price: -1, atMs: 1 } };
    const error = await database.db
      .transaction()
      .execute((trx) => enqueueEvent(trx, 'market.ticks.v1', 'EURUSD', invalid))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidEvent);
    expect((error as InvalidEvent).problems.join()).toContain('/payload/price');
    expect(await unpublishedCount()).toBe(0);
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
