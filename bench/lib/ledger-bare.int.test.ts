import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { transfer, transferBatch, verifyLedger } from '@updown/wallet';
import { BARE_SCHEMA, bareAccountIds, createBareLedger, writeBareBatch } from './ledger-bare';
import { runClosedLoop } from './ledger-load';
import { openBenchUsers } from './ledger-setup';
import { bareBatch, benchTransfer } from './ledger-workload';

let database: TestDatabase;
let owners: string[];

beforeAll(async () => {
  database = await createTestDatabase({ max: 4 });
  owners = await openBenchUsers(database.db, 30);
  await createBareLedger(database.pool);
});
afterAll(async () => {
  await database?.drop();
});

async function count(table: string): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(`select count(*)::int as n from ${table}`);
  return rows[0]!.n;
}

async function balances(schema: string): Promise<Map<string, number>> {
  const { rows } = await database.pool.query<{ code: string; balance: string }>(
    `select code, balance from ${schema}.ledger_accounts`,
  );
  return new Map(rows.map((r) => [r.code, Number(r.balance)]));
}

describe('the ledger benchmark', () => {
  it('writes the same entries, postings and balances through the engine and bare SQL', async () => {
    // The same keys in both (separate tables), so the same house shards too.
    const accountIds = await bareAccountIds(database.pool);
    const before = { entries: await count('ledger_entries'), postings: await count('ledger_postings') };
    const commands = Array.from({ length: 120 }, (_, seq) => benchTransfer(owners, 'engine', seq));
    await database.db.transaction().execute((trx) => transferBatch(trx, commands.slice(0, 100)));
    for (const command of commands.slice(100)) {
      await database.db.transaction().execute((trx) => transfer(trx, command));
    }
    await writeBareBatch(database.pool, bareBatch(owners, 'engine', 0, 100, accountIds));
    for (let seq = 100; seq < 120; seq++) {
      await writeBareBatch(database.pool, bareBatch(owners, 'engine', seq, 1, accountIds));
    }

    expect(await count(`${BARE_SCHEMA}.ledger_entries`)).toBe(
      (await count('ledger_entries')) - before.entries,
    );
    expect(await count(`${BARE_SCHEMA}.ledger_postings`)).toBe(
      (await count('ledger_postings')) - before.postings,
    );
    expect(await balances(BARE_SCHEMA)).toEqual(await balances('public'));
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('keeps the reference free of triggers and check constraints but with the same indexes and storage', async () => {
    const { rows: triggers } = await database.pool.query(
      `select tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and not t.tgisinternal`,
      [BARE_SCHEMA],
    );
    expect(triggers).toEqual([]);
    const { rows: checks } = await database.pool.query(
      `select conname from pg_constraint k join pg_namespace n on n.oid = k.connamespace
       where n.nspname = $1 and k.contype = 'c'`,
      [BARE_SCHEMA],
    );
    expect(checks).toEqual([]);
    const indexCount = async (schema: string) => {
      const { rows } = await database.pool.query<{ n: number }>(
        `select count(*)::int as n from pg_indexes where schemaname = $1 and tablename like 'ledger_%'`,
        [schema],
      );
      return rows[0]!.n;
    };
    expect(await indexCount(BARE_SCHEMA)).toBe(await indexCount('public'));
    const { rows: options } = await database.pool.query<{ nspname: string; reloptions: string[] | null }>(
      `select n.nspname, c.reloptions from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relname = 'ledger_accounts' and n.nspname in ('public', $1) order by n.nspname`,
      [BARE_SCHEMA],
    );
    expect(options).toHaveLength(2);
    expect(options[0]!.reloptions).toEqual(options[1]!.reloptions);
  });

  it('runs transactions in flight and counts what committed inside the window', async () => {
    let seq = 10_000;
    const measured = await runClosedLoop({
      concurrency: 2,
      warmupMs: 50,
      windowMs: 300,
      task: async () => {
        const first = seq;
        seq += 10;
        const batch = Array.from({ length: 10 }, (_, i) => benchTransfer(owners, 'engine', first + i));
        await database.db.transaction().execute((trx) => transferBatch(trx, batch));
        return 10;
      },
    });
    expect(measured.errors).toBe(0);
    expect(measured.latenciesMs.length).toBeGreaterThan(0);
    expect(measured.transfers).toBe(measured.latenciesMs.length * 10);
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('counts a failing transaction as an error, not as transfers', async () => {
    const measured = await runClosedLoop({
      concurrency: 1,
      warmupMs: 0,
      windowMs: 100,
      task: () => Promise.reject(new Error('refused')),
    });
    expect(measured.transfers).toBe(0);
    expect(measured.errors).toBeGreaterThan(0);
  });
});
