import type pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { fundedTrader } from '../testing/traders';
import { createPlaceTrade, type PlaceTradeRequest } from './place-trade.handler';

/**
 * Every statement of a placement batch runs as a named prepared statement: parsed and planned once
 * per connection, so a lone placement costs PostgreSQL about what a pgbench transaction does; and
 * the statements that do not wait for each other's results go to the server together.
 */

let database: TestDatabase;
/** The texts sent between each `begin` and its `commit`, in order, one list per transaction. */
const transactions: string[][] = [];
/** The queries handed to the client, each one round trip, for each transaction, begin to commit. */
const roundTrips: number[] = [];

beforeAll(async () => {
  // One connection: the statements recorded are the ones whose prepared forms are listed below.
  database = await createTestDatabase({ max: 1 });
  database.pool.on('connect', (client: pg.PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    let open: string[] | undefined;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      // A string, a query config, or statements sent together (`statements`, each with its text).
      const sent = args[0] as string | { text?: string; statements?: readonly { text: string }[] };
      const texts = typeof sent === 'string' ? [sent] : (sent.statements?.map((s) => s.text) ?? [sent.text!]);
      if (/^\s*begin\b/i.test(texts[0]!)) roundTrips.push(0);
      if (open !== undefined || /^\s*begin\b/i.test(texts[0]!)) roundTrips[roundTrips.length - 1]!++;
      for (const text of texts) {
        if (/^\s*begin\b/i.test(text)) transactions.push((open = []));
        else if (/^\s*(commit|rollback)\b/i.test(text)) open = undefined;
        else open?.push(text);
      }
      return query(...args);
    };
  });
});
afterAll(async () => {
  await database.drop();
});

const NOW = Date.UTC(2026, 0, 5, 12);
const prices = { get: () => ({ price: 97_000.5, atMs: NOW - 100 }) };

function trader(realCents: number): Promise<string> {
  return fundedTrader(database.db, realCents);
}

function request(userId: string, key: string, more: Partial<PlaceTradeRequest> = {}): PlaceTradeRequest {
  return {
    userId,
    pair: 'BTCUSDT',
    direction: 'UP',
    amountCents: 100,
    durationSec: 60,
    accountType: 'real',
    idempotencyKey: key,
    ...more,
  };
}

async function preparedTexts(): Promise<Set<string>> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
    database.db,
  );
  return new Set(rows.map((row) => row.statement));
}

describe('a placement batch', () => {
  it('sends every statement between begin and commit as a named prepared statement', async () => {
    const [a, b] = [await trader(100_000), await trader(100_000)];
    await sql`delete from risk_pairs`.execute(database.db);
    transactions.length = 0;
    const place = createPlaceTrade({ db: database.db, prices, clock: new ManualClock(NOW) });
    // Alone (the single transfer, the books created on first use); then, while one more runs alone,
    // a batch of two users (the batch transfer) with a key placed before among them (a replay).
    await place(request(a, 'first'));
    await Promise.all([
      place(request(a, 'second', { direction: 'DOWN' })),
      place(request(b, 'third')),
      place(request(a, 'fourth')),
      place(request(a, 'first')),
    ]);

    expect(transactions.length).toBeGreaterThanOrEqual(2);
    const sent = transactions.flat();
    // The batch's whole path ran: locks, look-ups, the books made, the stake holds, the trades.
    for (const pattern of [
      /from ledger_accounts where code = any/,
      /join trades t on t\.user_id/,
      /insert into risk_pairs \(pair\)/,
      /for update/,
      /insert into ledger_entries \(kind,/,
      /insert into ledger_entries \(id, kind,/,
      /insert into trades/,
      /update risk_pairs/,
    ]) {
      expect(
        sent.some((text) => pattern.test(text)),
        String(pattern),
      ).toBe(true);
    }
    const prepared = await preparedTexts();
    expect(sent.filter((text) => !prepared.has(text))).toEqual([]);
  });

  it('is planned once, and sent in three round trips: after a few lone placements every statement of one runs on its generic plan', async () => {
    const userId = await trader(100_000);
    const place = createPlaceTrade({ db: database.db, prices, clock: new ManualClock(NOW) });
    // Statistics on the tables placement grows, as a running database has them (autovacuum): on a
    // table never analyzed the planner sizes it by its pages, so every placement would make the
    // next plan dearer than the last and this would measure the fixture's growth. The settings
    // singletons keep no statistics, as in production, where they change too rarely to be analyzed.
    await sql`analyze trades, ledger_entries, ledger_postings, ledger_accounts`.execute(database.db);
    // PostgreSQL plans the first five executions with their values before it settles on a plan.
    for (let i = 0; i < 8; i++) await place(request(userId, `lone:${i}`));
    transactions.length = 0;
    roundTrips.length = 0;
    await place(request(userId, 'measured'));
    // Begin with the stake locks, the two reads and the books' lock; the three writes; commit.
    expect(roundTrips).toEqual([3]);
    const { rows } = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
      select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(database.db);
    const plans = new Map(rows.map((row) => [row.statement, row]));
    const lone = transactions.flat();
    expect(lone.length).toBeGreaterThanOrEqual(7);
    const replanned = lone.filter((text) => {
      const row = plans.get(text);
      return !row || row.generic_plans === 0;
    });
    expect(replanned).toEqual([]);
  });
});
