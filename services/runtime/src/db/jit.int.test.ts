import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/test-database';
import { connectionOptions, createDb, withDefaultUser } from './pool';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 1 });
  // The stock default, pinned on this database so the test means the same on every server
  // (PostgreSQL's own default is on; a server configured otherwise would make the test vacuous).
  await database.pool.query(`alter database ${database.name} set jit = on`);
});
afterAll(async () => {
  await database.drop();
});

async function plainJit(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: withDefaultUser(url) });
  await client.connect();
  try {
    return (await client.query<{ jit: string }>('show jit')).rows[0]!.jit;
  } finally {
    await client.end();
  }
}

describe('engine connections', () => {
  it('run with jit off on a database whose default is on', async () => {
    expect(await plainJit(database.url)).toBe('on');
    const handle = createDb(database.url, { max: 2 });
    try {
      // Two connections at once: the setting is the pool's, not one lucky session's.
      const [a, b] = await Promise.all([handle.pool.connect(), handle.pool.connect()]);
      try {
        for (const client of [a, b]) {
          expect((await client.query<{ jit: string }>('show jit')).rows[0]!.jit).toBe('off');
        }
      } finally {
        a.release();
        b.release();
      }
    } finally {
      await handle.close();
    }
  });

  it("keep a URL's own options and still turn jit off", async () => {
    const url = `${database.url}?options=${encodeURIComponent('-c statement_timeout=1234 -c jit=on')}`;
    const handle = createDb(url, { max: 1 });
    try {
      const { rows } = await handle.pool.query<{ jit: string; timeout: string }>(
        `select current_setting('jit') as jit, current_setting('statement_timeout') as timeout`,
      );
      expect(rows[0]).toEqual({ jit: 'off', timeout: '1234ms' });
    } finally {
      await handle.close();
    }
  });
});

describe('connectionOptions', () => {
  it('adds the engine settings after the options the URL names, and takes them out of the URL', () => {
    expect(connectionOptions('postgres://u@127.0.0.1:5432/d')).toEqual({
      connectionString: 'postgres://u@127.0.0.1:5432/d',
      options: '-c jit=off',
    });
    const withOwn = connectionOptions(
      'postgres://u@127.0.0.1:5432/d?options=-c%20work_mem%3D8MB&sslmode=disable',
    );
    expect(withOwn.options).toBe('-c work_mem=8MB -c jit=off');
    expect(new URL(withOwn.connectionString).searchParams.get('options')).toBeNull();
    expect(new URL(withOwn.connectionString).searchParams.get('sslmode')).toBe('disable');
  });
});
