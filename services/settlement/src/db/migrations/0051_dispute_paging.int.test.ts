import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../testing/harness';
import { down, up } from './0051_dispute_paging';

let h: Harness;

/** Migrations are written against no schema; the test's connection and transactions have one. */
const untyped = (db: Kysely<Database>): Kysely<unknown> => db as Kysely<unknown>;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

async function disputeWithoutPair(db: Kysely<Database>, tradeId: string, userId: string): Promise<string> {
  const id = randomUUID();
  await sql`
    insert into trade_disputes (id, trade_id, user_id, reason, replay, created_at_ms)
    values (${id}, ${tradeId}, ${userId}, 'Filed before disputes kept their pair', '{}'::jsonb, 1)`.execute(
    db,
  );
  return id;
}

describe('migration 0051_dispute_paging', () => {
  it('fills in the pair of disputes filed before it from their trades, and refuses one whose trade is gone', async () => {
    const user = await h.newUser({ demo: 10_000 });
    await h.tick('GBPUSD', h.clock.nowMs(), 1.3);
    const trade = await h.place({
      userId: user,
      pair: 'GBPUSD',
      direction: 'UP',
      amountCents: 100,
      accountType: 'demo',
    });
    await down(untyped(h.db));
    const filed = await disputeWithoutPair(h.db, trade.id, user);

    // Tried in a transaction that is then rolled back, so the real run below starts from the same state.
    const rollBack = new Error('roll back');
    await expect(
      h.db.transaction().execute(async (trx) => {
        await disputeWithoutPair(trx, randomUUID(), user);
        await expect(up(untyped(trx))).rejects.toThrow(/of a dispute is missing/);
        throw rollBack;
      }),
    ).rejects.toBe(rollBack);

    await up(untyped(h.db));
    const { rows } = await sql<{ pair: string }>`select pair from trade_disputes where id = ${filed}`.execute(
      h.db,
    );
    expect(rows).toEqual([{ pair: 'GBPUSD' }]);
    await expect(
      sql`insert into trade_disputes (id, trade_id, user_id, reason, replay, created_at_ms)
          values (${randomUUID()}, ${randomUUID()}, ${user}, 'x', '{}'::jsonb, 1)`.execute(h.db),
    ).rejects.toThrow(/null value in column "pair"/);
  });
});
