import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { settleBatch } from '@updown/settlement';
import { getUserBalances, transfer, verifyLedger } from '@updown/wallet';
import { SEED_DEMO_GRANT_CENTS, SEED_REAL_DEPOSIT_CENTS, seedStorm, type SeededStorm } from './storm-seed';

const EXPIRY_FROM_MS = Date.UTC(2026, 0, 5, 12, 0, 0);
const SPEC = {
  trades: 1_200,
  users: 100,
  pairs: 6,
  expiryFromMs: EXPIRY_FROM_MS,
  expirySpreadMs: 250,
  durationSec: 60,
  tickIntervalMs: 250,
  realEvery: 3,
};

let database: TestDatabase;
let seeded: SeededStorm;

beforeAll(async () => {
  database = await createTestDatabase({ max: 4 });
  seeded = await seedStorm(database.db, SPEC);
});
afterAll(async () => {
  await database?.drop();
});

describe('the expiry storm seed', () => {
  it('writes pending trades whose stake holds, funding and balances verify as a ledger', async () => {
    expect(seeded.pairs).toHaveLength(6);
    const trades = await sql<{ pending: number; pairs: number; min: number; max: number; users: number }>`
      select count(*) filter (where status = 'pending')::int as pending, count(distinct pair)::int as pairs,
             min(expiry_at_ms) as min, max(expiry_at_ms) as max, count(distinct user_id)::int as users
      from trades`.execute(database.db);
    expect(trades.rows[0]).toEqual({
      pending: 1_200,
      pairs: 6,
      min: EXPIRY_FROM_MS,
      max: expect.any(Number),
      users: 100,
    });
    expect(trades.rows[0]!.max).toBeLessThan(EXPIRY_FROM_MS + 250);
    const realExpected = Array.from({ length: 1_200 }, (_, g) => Math.floor(g / 6) % 3 === 0).filter(Boolean);
    expect(seeded.realTrades).toBe(realExpected.length);
    // Two funding entries per user and one stake per trade, each of two postings.
    expect(seeded.entries).toBe(2 * 100 + 1_200);
    expect(seeded.postings).toBe(2 * seeded.entries);

    const report = await verifyLedger(database.db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);

    const user = seeded.userIds[7]!;
    const stakes = await sql<{ account_type: 'demo' | 'real'; total: number }>`
      select account_type, sum(amount_cents)::bigint as total from trades where user_id = ${user} group by account_type`.execute(
      database.db,
    );
    const staked = Object.fromEntries(stakes.rows.map((r) => [r.account_type, Number(r.total)]));
    const balances = await getUserBalances(database.db, user);
    expect(balances.demo).toBe(SEED_DEMO_GRANT_CENTS - (staked.demo ?? 0));
    expect(balances.demo_in_play).toBe(staked.demo ?? 0);
    expect(balances.real).toBe(SEED_REAL_DEPOSIT_CENTS - (staked.real ?? 0));
    expect(balances.real_in_play).toBe(staked.real ?? 0);
  });

  it('writes each stake as the ledger would: the same transfer again is a replay, not a conflict', async () => {
    const rows = await database.db
      .selectFrom('trades')
      .select(['id', 'user_id', 'account_type', 'amount_cents'])
      .orderBy('id')
      .limit(10)
      .execute();
    expect(new Set(rows.map((r) => r.account_type))).toEqual(new Set(['demo', 'real']));
    await database.db.transaction().execute(async (trx) => {
      for (const row of rows) {
        const result = await transfer(trx, {
          kind: 'trade_stake',
          idempotencyKey: `trade:${row.id}:stake`,
          ref: { tradeId: row.id },
          postings: [
            { account: { owner: row.user_id, type: row.account_type }, amountCents: -row.amount_cents },
            {
              account: { owner: row.user_id, type: `${row.account_type}_in_play` as const },
              amountCents: row.amount_cents,
            },
          ],
        });
        expect(result.replayed).toBe(true);
      }
      const user = seeded.userIds[0]!;
      const grant = await transfer(trx, {
        kind: 'demo_grant',
        idempotencyKey: `demo_grant:${user}`,
        postings: [
          { account: { system: 'demo_issuance' }, amountCents: -SEED_DEMO_GRANT_CENTS },
          { account: { owner: user, type: 'demo' }, amountCents: SEED_DEMO_GRANT_CENTS },
        ],
      });
      expect(grant.replayed).toBe(true);
    });
  });

  it('settles on the seeded ticks with a ledger that still verifies', async () => {
    const result = await settleBatch(database.db, {
      due: seeded.pairs.map((pair) => ({ pair, dueBefore: EXPIRY_FROM_MS + 250 })),
      limit: 5_000,
      now: EXPIRY_FROM_MS + 300,
    });
    expect(result.settled).toHaveLength(1_200);
    const outcomes = new Set(result.settled.map((t) => t.status));
    expect(outcomes).toEqual(new Set(['won', 'lost']));
    const report = await verifyLedger(database.db);
    expect(report.violations).toEqual([]);
  });
});
