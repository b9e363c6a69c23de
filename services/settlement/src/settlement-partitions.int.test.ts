import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { someoneWaitsForALock } from '@updown/runtime/testing';
import { ownerShard, verifyLedger } from '@updown/wallet';
import { settleBatch } from './settle-batch';
import { createHarness, pendingCount, seedTrades, T0, type Harness } from './testing/harness';

/**
 * Owner shares settle side by side: a batch of one share locks only its own trades, user accounts
 * and house shards, so it never waits for a batch of another share, and together they settle every
 * trade once. Proved by holding everything of share 0 locked in an open transaction while share 1
 * settles to the end, then letting share 0 go.
 */

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const PAIR = 'GBPUSD';

describe('settlement in owner shares', () => {
  it('settles one share while every row of the other is locked, and each trade once', async () => {
    const users = await Promise.all(
      Array.from({ length: 24 }, () => h.newUser({ demo: 1_000_000, real: 1_000_000 })),
    );
    const byShare = (share: number) => users.filter((u) => ownerShard(u) % 2 === share);
    expect(byShare(0).length).toBeGreaterThan(0);
    expect(byShare(1).length).toBeGreaterThan(0);
    const acceptedAtMs = T0 + 1_000;
    await h.storeTicks([{ pair: PAIR, atMs: acceptedAtMs, price: 1.25 }]);
    const ids = await seedTrades(h, { users, count: 600, pair: PAIR, acceptedAtMs, entryPrice: 1.25 });
    await h.storeTicks([
      { pair: PAIR, atMs: acceptedAtMs + 59_900, price: 1.26 },
      { pair: PAIR, atMs: acceptedAtMs + 60_100, price: 1.27 },
    ]);
    const command = (index: number) => ({
      due: [{ pair: PAIR, dueBefore: acceptedAtMs + 60_100 }],
      limit: 1_000,
      now: acceptedAtMs + 60_200,
      partition: { index, count: 2 },
    });

    let share0: ReturnType<typeof settleBatch> | undefined;
    let settled1 = 0;
    await h.db.transaction().execute(async (trx) => {
      // Everything share 0 will touch: its owners' trades and accounts, and the even house shards.
      await sql`
        select id from trades where pair = ${PAIR} and user_id = any(${byShare(0)}::uuid[]) for update`.execute(
        trx,
      );
      await sql`
        select id from ledger_accounts
        where owner_id = any(${byShare(0)}::uuid[])
           or (owner_id is null and right(code, 2)::int % 2 = 0)
        order by id for update`.execute(trx);
      const share1 = await settleBatch(h.db, command(1));
      expect(share1.settled.length).toBeGreaterThan(0);
      expect(share1.selected).toBeLessThan(1_000);
      expect(new Set(share1.settled.map((t) => t.tradeId)).size).toBe(share1.settled.length);
      settled1 = share1.settled.length;
      share0 = settleBatch(h.db, command(0));
      await someoneWaitsForALock(h.db);
    });
    const result0 = await share0!;
    expect(result0.settled.length + settled1).toBe(600);
    expect(await settledCount(ids)).toBe(600);
    expect(await pendingCount(h.db)).toBe(0);

    // The house side of each entry went to its owner's shard.
    const { rows } = await sql<{ owner: string; code: string }>`
      select t.user_id::text as owner, a.code
      from ledger_entries e
      join trades t on e.idempotency_key = 'trade:' || t.id || ':settle'
      join ledger_postings p on p.entry_id = e.id
      join ledger_accounts a on a.id = p.account_id
      where t.id = any(${ids}::uuid[]) and a.owner_id is null`.execute(h.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Number(row.code.slice(-2))).toBe(ownerShard(row.owner));
    expect((await verifyLedger(h.db)).violations).toEqual([]);
  });
});

async function settledCount(ids: readonly string[]): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from trades where id = any(${ids}::uuid[]) and status <> 'pending'`.execute(
    h.db,
  );
  return rows[0]!.n;
}
