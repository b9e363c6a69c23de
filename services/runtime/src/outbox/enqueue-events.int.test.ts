import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type EventOf } from '@updown/schemas';
import { InvalidEvent } from '../bus/errors';
import { createTestDatabase, type TestDatabase } from '../testing';
import { enqueueEvents, type OutboxEvent } from './enqueue-event';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 2 });
});
afterAll(async () => {
  await database.drop();
});

const tick = (pair: string, n: number): OutboxEvent<'market.ticks.v1'> => ({
  topic: 'market.ticks.v1',
  key: pair,
  event: createEvent(
    'market.ticks.v1',
    { pair, price: 1 + n / 1000, atMs: 1_767_225_600_000 + n },
    { producer: 'test' },
  ),
});

describe('enqueueEvents', () => {
  it('writes a batch with one statement, in the order given', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => tick(i % 2 ? 'EURUSD' : 'BTCUSDT', i));
    let statements = 0;
    const ids = await database.db.transaction().execute((trx) =>
      enqueueEvents(
        trx.withPlugin({
          transformQuery: (args) => {
            statements++;
            return args.node;
          },
          transformResult: async (args) => args.result,
        }),
        rows,
      ),
    );
    expect(statements).toBe(1);
    expect(ids).toHaveLength(500);
    const stored = await database.db
      .selectFrom('outbox')
      .select(['id', 'key', 'event'])
      .orderBy('id')
      .execute();
    expect(stored.map((r) => r.id)).toEqual(ids);
    expect(stored.map((r) => (r.event as EventOf<'market.ticks.v1'>).id)).toEqual(
      rows.map((r) => r.event.id),
    );
    expect(await database.db.transaction().execute((trx) => enqueueEvents(trx, []))).toEqual([]);
  });

  it('refuses the whole batch when one event is invalid', async () => {
    const before = await database.db.selectFrom('outbox').select('id').execute();
    const bad = {
      ...tick('EURUSD', 1),
      event: { ...tick('EURUSD', 1).event, payload: { pair: 'EURUSD', price: -1, atMs: 1 } },
    };
    await expect(
      database.db.transaction().execute((trx) => enqueueEvents(trx, [tick('EURUSD', 2), bad as OutboxEvent])),
    ).rejects.toBeInstanceOf(InvalidEvent);
    await expect(
      database.db.transaction().execute((trx) => enqueueEvents(trx, [{ ...tick('EURUSD', 3), key: '' }])),
    ).rejects.toBeInstanceOf(InvalidEvent);
    expect(await database.db.selectFrom('outbox').select('id').execute()).toEqual(before);
  });
});
