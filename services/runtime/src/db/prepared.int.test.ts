import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/test-database';
import { allColumns, executePrepared, preparedStatement, PREPARED_TEXTS_MAX, selectList } from './prepared';

let database: TestDatabase;

beforeAll(async () => {
  // One connection, so every statement below runs on the session whose prepared statements are listed.
  database = await createTestDatabase({ max: 1 });
});
afterAll(async () => {
  await database.drop();
});

async function preparedStatements(): Promise<string[]> {
  const { rows } = await sql<{
    statement: string;
  }>`select statement from pg_prepared_statements order by prepare_time`.execute(database.db);
  return rows.map((r) => r.statement);
}

describe('executePrepared', () => {
  it('runs an opted-in statement as a named statement with the same result as an unnamed one', async () => {
    const query = database.db
      .selectFrom('market_pairs')
      .select(['symbol', 'payout_pct'])
      .where('symbol', '=', 'EURUSD');
    const plain = await query.execute();
    expect(await preparedStatements()).toEqual([]);

    const first = await executePrepared(database.db, query);
    const again = await executePrepared(
      database.db,
      database.db.selectFrom('market_pairs').select(['symbol', 'payout_pct']).where('symbol', '=', 'BTCUSDT'),
    );
    expect(first.rows).toEqual(plain);
    expect(again.rows).toEqual([{ symbol: 'BTCUSDT', payout_pct: 80 }]);
    // Prepared once for both calls: the text is the same, only the parameters differ.
    expect(await preparedStatements()).toEqual([query.compile().sql]);
  });

  it('prepares raw SQL compiled against a transaction, inside that transaction', async () => {
    const rows = await database.db.transaction().execute(async (trx) => {
      const result = await executePrepared(trx, sql<{ n: number }>`select ${41}::int + 1 as n`.compile(trx));
      return result.rows;
    });
    expect(rows).toEqual([{ n: 42 }]);
    expect(await preparedStatements()).toContain('select $1::int + 1 as n');
  });

  it('runs a fixed text with the values of each call, prepared once', async () => {
    const columns = allColumns<{ symbol: string; payout_pct: number }>()(['symbol', 'payout_pct']);
    // @ts-expect-error a list that leaves out a column of its row type does not compile
    allColumns<{ symbol: string; payout_pct: number }>()(['symbol']);
    const text = `select ${selectList(columns, 'p')} from market_pairs p where p.symbol = any($1::text[]) order by 1`;
    const pairs = preparedStatement<{ symbol: string; payout_pct: number }, [symbols: string[]]>(text);
    expect((await pairs(database.db, ['EURUSD'])).rows.map((r) => r.symbol)).toEqual(['EURUSD']);
    expect((await pairs(database.db, ['BTCUSDT', 'EURUSD'])).rows.map((r) => r.symbol)).toEqual([
      'BTCUSDT',
      'EURUSD',
    ]);
    expect((await preparedStatements()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('leaves every other statement unnamed', async () => {
    const before = await preparedStatements();
    await sql`select 1 as one`.execute(database.db);
    await database.db.selectFrom('platform_settings').select('max_stake_cents').execute();
    expect(await preparedStatements()).toEqual(before);
  });

  it(`prepares at most ${PREPARED_TEXTS_MAX} texts per process, then runs the rest unnamed`, async () => {
    const already = (await preparedStatements()).length;
    for (let i = 0; i < PREPARED_TEXTS_MAX + 5; i++) {
      const { rows } = await executePrepared(
        database.db,
        sql<{ n: number }>`select ${sql.lit(i)}::int as n`.compile(database.db),
      );
      expect(rows).toEqual([{ n: i }]);
    }
    expect((await preparedStatements()).length).toBe(PREPARED_TEXTS_MAX);
    expect(already).toBeLessThan(PREPARED_TEXTS_MAX);
  });
});
