import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { verifyCheckpoint } from '@updown/verify';
import { GENESIS_HASH, verifySegment } from '@updown/verify/chain';
import { nodeCrypto } from '@updown/verify/node';
import { deleteTicksBefore } from '../market.repository';
import { storeTicks } from '../testing/ticks';
import { chainSegment, pinTicks, receiptTicks } from './chain.repository';
import { listCheckpoints, signCheckpoints } from './checkpoints';
import { chainHash, TickChain } from './tick-chain';
import { verifyTickChains } from './verify-chains';

let database: TestDatabase;
const key = generateSigningKey();
const T = Date.UTC(2026, 0, 5, 12);

beforeAll(async () => {
  database = await createTestDatabase({ max: 5 });
});
afterAll(async () => {
  await database?.drop();
});

const walk = (pair: string, from: number, count: number, start = 1.1) =>
  Array.from({ length: count }, (_, i) => ({ pair, atMs: from + i * 250, price: start + i / 10_000 }));

async function freshPair(pair: string, count: number, from = T) {
  await storeTicks(database.db, walk(pair, from, count));
}

describe('the tick chain', () => {
  it('links each pair from the genesis hash, one sequence per pair, each hash over content and the previous hash', async () => {
    await storeTicks(database.db, [...walk('CHAINA', T, 3), ...walk('CHAINB', T, 2, 95_000)]);
    await storeTicks(database.db, walk('CHAINA', T + 750, 2)); // a later batch continues the chain
    const a = await chainSegment(database.db, 'CHAINA', 1, 5);
    expect(a.map((t) => t.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(a[0]!.prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < a.length; i++) expect(a[i]!.prevHash).toBe(a[i - 1]!.hash);
    for (const t of a) {
      expect(
        chainHash('CHAINA', t.seq, t.atMs, Number(t.price), Buffer.from(t.prevHash, 'hex')).toString('hex'),
      ).toBe(t.hash);
    }
    const b = await chainSegment(database.db, 'CHAINB', 1, 2);
    expect(b.map((t) => [t.seq, t.price])).toEqual([
      [1, '95000'],
      [2, '95000.0001'],
    ]);
  });

  it('refuses a second writer that would fork a pair at a number already taken', async () => {
    await freshPair('FORKED', 2);
    const fork = sql`insert into market_ticks (pair, at_ms, price, seq, prev_hash, hash)
      values ('FORKED', ${T + 5_000}, 1.2, 2, ${Buffer.alloc(32)}, ${Buffer.alloc(32, 1)})`;
    await expect(fork.execute(database.db)).rejects.toThrow(/market_ticks_pair_seq/);
  });

  it('signs a checkpoint per pair that grew, each starting where the previous ended, verifiable with the key set alone', async () => {
    await freshPair('CKPT', 10);
    expect(await signCheckpoints(database.db, key, { nowMs: () => T + 60_000 })).toContain('CKPT');
    expect(await signCheckpoints(database.db, key, { nowMs: () => T + 61_000 })).not.toContain('CKPT'); // nothing new
    await storeTicks(database.db, walk('CKPT', T + 2_500, 4));
    await signCheckpoints(database.db, key, { nowMs: () => T + 120_000 });
    const [second, first] = await listCheckpoints(database.db, 'CKPT', 10);
    expect(first!.checkpoint).toMatchObject({
      fromSeq: 1,
      toSeq: 10,
      ticks: 10,
      fromMs: T,
      toMs: T + 9 * 250,
      startHash: GENESIS_HASH,
    });
    expect(second!.checkpoint).toMatchObject({
      fromSeq: 11,
      toSeq: 14,
      ticks: 4,
      startHash: first!.checkpoint.headHash,
    });
    for (const signed of [first!, second!]) {
      expect(await verifyCheckpoint(signed, key.keySet, nodeCrypto)).toEqual({ valid: true, problems: [] });
    }
    const segment = await chainSegment(database.db, 'CKPT', 7, 14);
    const problems = await verifySegment(nodeCrypto, 'CKPT', segment, {
      toSeq: second!.checkpoint.toSeq,
      headHash: second!.checkpoint.headHash,
    });
    expect(problems).toEqual([]);
    // Tick 11, the first of the second range, is covered by the checkpoint ending at 14.
    const [covered] = await receiptTicks(database.db, [
      { pair: 'CKPT', entryAtMs: T + 2_500, entryPrice: 1.1, expiryAtMs: T + 2_500 },
    ]);
    expect(covered!.entry?.seq).toBe(11);
    expect(covered!.entryCheckpoint?.toSeq).toBe(14);
    const other = generateSigningKey();
    expect((await verifyCheckpoint(first!, other.keySet, nodeCrypto)).valid).toBe(false);
  });

  it('finds a receipt’s ticks: the entry, the last at or before expiry, the next one, and the checkpoints covering them', async () => {
    await freshPair('RCPT', 8); // T, T+250, … T+1750
    await signCheckpoints(database.db, key, { nowMs: () => T + 60_000 });
    const [found] = await receiptTicks(database.db, [
      { pair: 'RCPT', entryAtMs: T + 250, entryPrice: 1.1001, expiryAtMs: T + 1_100 },
    ]);
    expect(found!.entry?.seq).toBe(2);
    expect(found!.exit?.seq).toBe(5); // T+1000
    expect(found!.after?.seq).toBe(6);
    expect(found!.entryCheckpoint?.toSeq).toBe(8);
    expect(found!.exitCheckpoint?.toSeq).toBe(8);
    expect(found!.exitUnchained).toBe(false);
  });

  it('cuts retention only at a signed checkpoint and keeps pinned ticks, so the rest of the chain still verifies', async () => {
    const old = T - 10 * 86_400_000;
    await freshPair('RETAIN', 12, old);
    await signCheckpoints(database.db, key, { nowMs: () => old + 60_000 }); // covers 1..12
    await storeTicks(database.db, walk('RETAIN', old + 3_000, 4)); // 13..16, not yet checkpointed
    const [pinned] = await chainSegment(database.db, 'RETAIN', 5, 5);
    await pinTicks(database.db, [pinned!.id]);
    let deleted = 0;
    for (let n = 1; n > 0;) deleted += n = await deleteTicksBefore(database.db, 'RETAIN', T, 100);
    expect(deleted).toBe(11); // 1..12 but the pinned 5; 13..16 wait for their checkpoint
    const left = await chainSegment(database.db, 'RETAIN', 1, 16);
    expect(left.map((t) => t.seq)).toEqual([5, 13, 14, 15, 16]);
  });

  it('ledger verification proves intact chains, then names a changed, a deleted and an inserted tick', async () => {
    const verify = () => verifyTickChains(database.db, key.keySet);
    const clean = await verify();
    // RETAIN was cut by retention at its checkpoint, keeping one pinned tick behind the cut.
    expect(clean.violations).toEqual([]);
    expect(clean.pairs).toBeGreaterThanOrEqual(6);

    await freshPair('TAMPER', 10);
    await signCheckpoints(database.db, key, { nowMs: () => T + 90_000 });
    await sql`update market_ticks set price = 1.5 where pair = 'TAMPER' and seq = 4`.execute(database.db);
    await sql`delete from market_ticks where pair = 'TAMPER' and seq = 7`.execute(database.db);
    await sql`insert into market_ticks (pair, at_ms, price) values ('TAMPER', ${T + 1_300}, 1.9)`.execute(
      database.db,
    );
    const details = (await verify()).violations.filter((v) => v.detail.startsWith('TAMPER'));
    expect(details).toEqual(
      expect.arrayContaining([
        {
          check: 'tick_hash_mismatch',
          detail: expect.stringMatching(/^TAMPER tick 4 .*hash does not match its content/),
        },
        { check: 'tick_missing', detail: 'TAMPER: 1 tick(s) missing between 6 and 8' },
        {
          check: 'tick_unchained_inside_chain',
          detail: expect.stringMatching(/^TAMPER: tick id \d+ at \d+ is inside the chain's time span/),
        },
      ]),
    );
  });

  it("refuses a tick not later than its pair's head, and the ledger check names a stored chain whose times do not rise", async () => {
    await freshPair('RISING', 3); // T, T+250, T+500
    const [head] = await chainSegment(database.db, 'RISING', 3, 3);
    const chain = new TickChain();
    const { chained, refused } = await chain.link(database.db, [
      { pair: 'RISING', atMs: T + 500, price: 2 }, // the head's instant
      { pair: 'RISING', atMs: T + 499, price: 3 },
      { pair: 'RISING', atMs: T + 501, price: 4 },
      { pair: 'RISING', atMs: T + 501, price: 5 }, // the instant of the tick linked just before it
    ]);
    expect(chained.map((t) => [t.seq, t.atMs, t.price])).toEqual([[4, T + 501, 4]]);
    expect(chained[0]!.prevHash.toString('hex')).toBe(head!.hash);
    expect(refused.map((t) => t.price)).toEqual([2, 3, 5]);
    await expect(storeTicks(database.db, [{ pair: 'RISING', atMs: T + 500, price: 2 }])).rejects.toThrow(
      /not later than their pair's chain head/,
    );
    expect((await chainSegment(database.db, 'RISING', 1, 10)).map((t) => t.seq)).toEqual([1, 2, 3]);

    // A chain written past the rule, hashes and links all in order: only the times give it away.
    let prevHash: Buffer = Buffer.from(GENESIS_HASH, 'hex');
    for (const [seq, atMs] of [
      [1, T],
      [2, T],
    ] as const) {
      const hash = chainHash('STILL', seq, atMs, 1.1, prevHash);
      await sql`insert into market_ticks (pair, at_ms, price, seq, prev_hash, hash)
        values ('STILL', ${atMs}, 1.1, ${seq}, ${prevHash}, ${hash})`.execute(database.db);
      prevHash = hash;
    }
    const found = (await verifyTickChains(database.db, key.keySet)).violations.filter((v) =>
      v.detail.startsWith('STILL'),
    );
    expect(found).toEqual([
      {
        check: 'tick_time_not_rising',
        detail: `STILL tick 2 at ${T} is not later than tick 1 at ${T}: tick times rise strictly along a chain`,
      },
    ]);
  });
});
