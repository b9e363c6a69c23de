import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/test-database';
import { createDb } from './pool';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 1 });
});
afterAll(async () => {
  await database.drop();
});

describe('createDb', () => {
  it('survives the server ending a checked-out, idle connection, and serves the next query on a new one', async () => {
    const handle = createDb(database.url, { max: 2 });
    try {
      const client = await handle.pool.connect();
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      const pid = rows[0]!.pid;
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      // What a PostgreSQL restart does to every session: FATAL 57P01 while no query is running.
      // Without a listener on the client this 'error' event would be an uncaught exception.
      await handle.pool.query('select pg_terminate_backend($1)', [pid]);
      await ended;
      await expect(client.query('select 1')).rejects.toThrow();
      client.release(true);

      const after = await handle.pool.query<{ one: number }>('select 1 as one');
      expect(after.rows[0]!.one).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
