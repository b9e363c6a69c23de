import type pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/test-database';
import { numberArray, textArray } from './array-literals';
import { poolOf } from './pool';
import { SkippedStatement } from './described-query';
import { PgTransaction, preparedStatement, runPgTransaction, together, unnamedStatement } from './prepared';

let database: TestDatabase;

beforeAll(async () => {
  // One connection: every transaction below takes the same client, so a leaked one would hang.
  database = await createTestDatabase({ max: 1 });
  await sql`create table scratch (id int primary key, note text not null,
              tag int unique deferrable initially deferred)`.execute(database.db);
});
afterAll(async () => {
  await database.drop();
});

const insertScratch = preparedStatement<{ id: number }, [ids: string, notes: string]>(`
  insert into scratch (id, note) select * from unnest($1::int[], $2::text[]) returning id`);
const insertQuietly = preparedStatement<never, [ids: string]>(`
  insert into scratch (id, note) select i, 'q' from unnest($1::int[]) as i`);
const readNote = preparedStatement<{ note: string }, [id: number]>(`select note from scratch where id = $1`);
const countScratch = unnamedStatement<{ n: number }, []>(`select count(*)::int as n from scratch`);

async function notes(): Promise<string[]> {
  const { rows } = await sql<{ note: string }>`select note from scratch order by id`.execute(database.db);
  return rows.map((row) => row.note);
}

async function preparedTexts(): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
    database.db,
  );
  return rows.map((row) => row.statement);
}

describe('runPgTransaction', () => {
  it('knows the pool of the engine database and of no other Kysely', () => {
    expect(poolOf(database.db)).toBe(database.pool);
    expect(poolOf(database.db.withoutPlugins())).toBeUndefined();
  });

  it('commits what its work wrote, runs fixed statements on the client as named ones, and releases the client', async () => {
    await sql`truncate scratch`.execute(database.db);
    const result = await runPgTransaction(database.pool, async (trx) => {
      expect(trx).toBeInstanceOf(PgTransaction);
      const { rows } = await insertScratch(
        trx,
        numberArray([1, 2], (n) => n),
        textArray(['a "quoted", {braced} note', 'back\\slash'], (s) => s),
      );
      const { rows: counted } = await countScratch(trx);
      return { ids: rows.map((row) => row.id), count: counted[0]!.n };
    });
    expect(result).toEqual({ ids: [1, 2], count: 2 });
    expect(await notes()).toEqual(['a "quoted", {braced} note', 'back\\slash']);
    // The single connection came back to the pool (the reads above ran on it), and the fixed text
    // is prepared on it, under the text the kysely path would also send; the unnamed one is not.
    const prepared = await preparedTexts();
    expect(prepared.some((text) => text.includes('insert into scratch'))).toBe(true);
    expect(prepared.some((text) => text.includes('count(*)::int as n from scratch'))).toBe(false);
    expect(database.pool.totalCount).toBe(1);
  });

  it('gives the same rows through a kysely transaction', async () => {
    await sql`truncate scratch`.execute(database.db);
    const rows = await database.db.transaction().execute(async (trx) => {
      await insertScratch(
        trx,
        numberArray([7], (n) => n),
        textArray(['kysely'], (s) => s),
      );
      return (await countScratch(trx)).rows;
    });
    expect(rows).toEqual([{ n: 1 }]);
    expect(await notes()).toEqual(['kysely']);
  });

  it('rolls back and rethrows the error of its work, and the client serves the next transaction', async () => {
    await sql`truncate scratch`.execute(database.db);
    const failure = new Error('refused');
    await expect(
      runPgTransaction(database.pool, async (trx) => {
        await insertScratch(
          trx,
          numberArray([1], (n) => n),
          textArray(['rolled back'], (s) => s),
        );
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await notes()).toEqual([]);
    await runPgTransaction(database.pool, (trx) =>
      insertScratch(
        trx,
        numberArray([2], (n) => n),
        textArray(['after'], (s) => s),
      ),
    );
    expect(await notes()).toEqual(['after']);
  });

  it('throws the commit error when the commit fails, and writes nothing', async () => {
    await sql`truncate scratch`.execute(database.db);
    let returned = false;
    const error = await runPgTransaction(database.pool, async (trx) => {
      // A deferred unique constraint is checked at commit: the statements succeed, the commit fails.
      await trx.run(undefined, `insert into scratch (id, note, tag) values (1, 'x', 5), (2, 'y', 5)`, []);
      returned = true;
    }).catch((caught: unknown) => caught);
    expect(returned).toBe(true);
    expect(error).toMatchObject({ code: '23505' });
    expect(await notes()).toEqual([]);
  });

  it('destroys a client whose connection died instead of returning it to the pool', async () => {
    const before = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
    await expect(
      runPgTransaction(database.pool, async (trx) => {
        await trx.run(undefined, 'select pg_terminate_backend(pg_backend_pid())', []);
      }),
    ).rejects.toThrow();
    // The next checkout opens a new connection (a new backend) that works.
    const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
    expect(after.rows[0]!.pid).not.toBe(before.rows[0]!.pid);
    expect(database.pool.totalCount).toBe(1);
  });

  it('describes a named statement once per connection, and gives the same rows every time after', async () => {
    await sql`truncate scratch`.execute(database.db);
    const descriptions: string[] = [];
    const listener = (message: { fields: { name: string }[] }) =>
      descriptions.push(message.fields.map((field) => field.name).join(','));
    let connection: NodeJS.EventEmitter | undefined;
    database.pool.once('acquire', (client: pg.PoolClient) => {
      connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
      connection.on('rowDescription', listener);
    });
    const results = await runPgTransaction(database.pool, async (trx) => {
      try {
        const answers = [];
        for (let i = 1; i <= 3; i++) {
          answers.push(
            (
              await insertScratch(
                trx,
                numberArray([i * 10, i * 10 + 1], (n) => n),
                textArray(['x', 'y'], (s) => s),
              )
            ).rows,
          );
          answers.push(
            (
              await insertQuietly(
                trx,
                numberArray([i * 10 + 2], (n) => n),
              )
            ).rows,
          );
        }
        for (const id of [10, 21, 32]) answers.push((await readNote(trx, id)).rows);
        // A statement that fails on the server leaves the next one correct on the same connection.
        await trx.run(undefined, 'savepoint before_duplicate', []);
        await expect(
          insertScratch(
            trx,
            numberArray([10], (n) => n),
            textArray(['duplicate'], (s) => s),
          ),
        ).rejects.toMatchObject({ code: '23505' });
        await trx.run(undefined, 'rollback to savepoint before_duplicate', []);
        answers.push(
          (
            await insertScratch(
              trx,
              numberArray([99], (n) => n),
              textArray(['z'], (s) => s),
            )
          ).rows,
        );
        return answers;
      } finally {
        connection?.off('rowDescription', listener);
      }
    });
    expect(results).toEqual([
      [{ id: 10 }, { id: 11 }],
      [],
      [{ id: 20 }, { id: 21 }],
      [],
      [{ id: 30 }, { id: 31 }],
      [],
      [{ note: 'x' }],
      [{ note: 'y' }],
      [{ note: 'q' }],
      [{ id: 99 }],
    ]);
    // Run only here: described by its first execution on this connection, and never again.
    expect(descriptions.filter((fields) => fields === 'note')).toEqual(['note']);
    // The insert was described on this connection at most once (by an earlier test, or here).
    expect(descriptions.filter((fields) => fields === 'id').length).toBeLessThanOrEqual(1);
    expect(await notes()).toEqual(['x', 'y', 'q', 'x', 'y', 'q', 'x', 'y', 'q', 'z']);
  });
});

describe('statements started together', () => {
  /** Counts the server's ReadyForQuery messages (one per round trip) on the next checkout. */
  function countRoundTrips(): { count: number } {
    const counted = { count: 0 };
    database.pool.once('acquire', (client: pg.PoolClient) => {
      const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
      const count = () => counted.count++;
      connection.on('readyForQuery', count);
      database.pool.once('release', () => connection.off('readyForQuery', count));
    });
    return counted;
  }

  const write = (trx: PgTransaction, id: number, note: string) =>
    insertScratch(
      trx,
      numberArray([id], (n) => n),
      textArray([note], (s) => s),
    );

  it('go to the server in one round trip with begin, and run in the order started', async () => {
    await sql`truncate scratch`.execute(database.db);
    // Once on the connection first: a statement is sent together with others only once the
    // connection has parsed and described it.
    await runPgTransaction(database.pool, async (trx) => {
      await write(trx, 1, 'first');
      await readNote(trx, 1);
    });
    const trips = countRoundTrips();
    const [written, read] = await runPgTransaction(database.pool, (trx) =>
      together(
        trx,
        () => write(trx, 2, 'second'),
        () => readNote(trx, 2),
      ),
    );
    expect(written.rows).toEqual([{ id: 2 }]);
    // The read ran after the write it was started after.
    expect(read.rows).toEqual([{ note: 'second' }]);
    // begin, the write and the read; then the commit.
    expect(trips.count).toBe(2);
    expect(await notes()).toEqual(['first', 'second']);
  });

  it('fail after the first that fails: it gets its error, the rest are not used, and nothing is written', async () => {
    await sql`truncate scratch`.execute(database.db);
    await runPgTransaction(database.pool, (trx) => write(trx, 1, 'kept'));
    const outcomes: unknown[] = [];
    const error = await runPgTransaction(database.pool, (trx) => {
      const started = [write(trx, 2, 'new'), write(trx, 1, 'duplicate'), readNote(trx, 2)];
      started.forEach((statement, i) =>
        statement.then(
          (result) => (outcomes[i] = result.rows),
          (failure: unknown) => (outcomes[i] = failure),
        ),
      );
      return Promise.all(started);
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: '23505' });
    expect(outcomes[0]).toEqual([{ id: 2 }]);
    expect(outcomes[1]).toMatchObject({ code: '23505' });
    expect(outcomes[2]).toBeInstanceOf(SkippedStatement);
    expect(await notes()).toEqual(['kept']);
    // The client went back to the pool in order: the next transaction on it works.
    await runPgTransaction(database.pool, (trx) => write(trx, 3, 'after'));
    expect(await notes()).toEqual(['kept', 'after']);
  });

  it('reach the client one query at a time, also when none of them can go together', async () => {
    await sql`truncate scratch`.execute(database.db);
    // How many queries the client had not answered yet at each query it was handed.
    const unanswered: number[] = [];
    database.pool.once('acquire', (client: pg.PoolClient) => {
      const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
      let handed = 0;
      let answered = 0;
      const count = () => answered++;
      connection.on('readyForQuery', count);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      Object.assign(client, {
        query: (...args: unknown[]) => {
          unanswered.push(handed++ - answered);
          return query(...args);
        },
      });
      database.pool.once('release', () => {
        connection.off('readyForQuery', count);
        delete (client as { query?: unknown }).query;
      });
    });
    // Unnamed statements never go together: each is its own query.
    const counted = await runPgTransaction(database.pool, (trx) =>
      together(
        trx,
        () => countScratch(trx),
        () =>
          insertQuietly(
            trx,
            numberArray([1], (n) => n),
          ),
        () => countScratch(trx),
        () => countScratch(trx),
      ),
    );
    expect(counted.filter((result) => result.rows.length > 0).map((result) => result.rows[0]!.n)).toEqual([
      0, 1, 1,
    ]);
    expect(unanswered.length).toBeGreaterThanOrEqual(5);
    expect(unanswered.every((n) => n === 0)).toBe(true);
  });

  it('run one after another through a kysely transaction, with the same results', async () => {
    await sql`truncate scratch`.execute(database.db);
    const [written, read] = await database.db.transaction().execute((trx) =>
      together(
        trx,
        () =>
          insertScratch(
            trx,
            numberArray([4], (n) => n),
            textArray(['kysely'], (s) => s),
          ),
        () => readNote(trx, 4),
      ),
    );
    expect(written.rows).toEqual([{ id: 4 }]);
    expect(read.rows).toEqual([{ note: 'kysely' }]);
  });
});

describe('a client that throws instead of answering', () => {
  it('fails each statement with its error and does not stop the ones after it', async () => {
    const broken = new Error('not queryable');
    const client = {
      query: () => {
        throw broken;
      },
    } as unknown as pg.ClientBase;
    const trx = new PgTransaction(client);
    const first = trx.run(undefined, 'select 1', []);
    const second = trx.run(undefined, 'select 2', []);
    await expect(first).rejects.toBe(broken);
    await expect(second).rejects.toBe(broken);
    await expect(trx.run(undefined, 'select 3', [])).rejects.toBe(broken);
  });
});
