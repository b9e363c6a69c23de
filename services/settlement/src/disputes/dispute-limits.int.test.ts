import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '@updown/runtime';
import { createHarness, waitFor, type Harness } from '../testing/harness';
import { decodeDisputeCursor, pageOf } from './dispute-page.domain';
import { DISPUTE_FILING_WINDOW_MS, OPEN_DISPUTES_RETRY_AFTER_SEC } from './dispute-quota.domain';
import { openDispute, resolveDispute, type DisputeDeps } from './disputes.handler';
import { listDisputePage } from './disputes.repository';

/**
 * The per-trader filing caps hold when filings race (one transaction under the trader's filing
 * lock), and the admins' keyset pages reach every dispute exactly once.
 */

let h: Harness;
const key = generateSigningKey();
const admin = randomUUID();

beforeAll(async () => {
  h = await createHarness();
  await h.start();
});
afterAll(async () => {
  await h.close();
});

const deps = (limits: DisputeDeps['limits']): DisputeDeps => ({
  db: h.db,
  clock: h.clock,
  keySet: key.keySet,
  limits,
});

/** `count` one-dollar demo trades of `user`, placed together and settled (UP from 1.1, exit 1.12). */
async function settledTrades(user: string, count: number): Promise<string[]> {
  const t = h.clock.nowMs() + 1_000;
  h.clock.set(t);
  await h.tick('EURUSD', t, 1.1);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const trade = await h.place({
      userId: user,
      pair: 'EURUSD',
      direction: 'UP',
      amountCents: 100,
      accountType: 'demo',
    });
    ids.push(trade.id);
  }
  h.clock.set(t + 59_500);
  await h.tick('EURUSD', t + 59_500, 1.12);
  h.clock.set(t + 60_300);
  await h.tick('EURUSD', t + 60_300, 1.11);
  await waitFor(
    async () =>
      (await Promise.all(ids.map((id) => h.trade(id)))).every((trade) => trade.status !== 'pending'),
    'settlement',
  );
  return ids;
}

async function storedDisputes(user: string): Promise<{ open: number; all: number }> {
  const { rows } = await sql<{ open: number; all: number }>`
    select count(*) filter (where status = 'open')::int as open, count(*)::int as all
      from trade_disputes where user_id = ${user}`.execute(h.db);
  return rows[0]!;
}

const file = (limits: DisputeDeps['limits'], user: string) => (tradeId: string) =>
  openDispute(deps(limits), { userId: user, tradeId, reason: 'Check this one' });

describe('dispute caps', () => {
  it('store exactly the open cap when a trader files in parallel; the rest are refused with a retry hint', async () => {
    const user = await h.newUser({ demo: 100_000 });
    const trades = await settledTrades(user, 10);
    const results = await Promise.allSettled(
      trades.map(file({ openPerTraderMax: 3, filedPerTraderPerDayMax: 100 }, user)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refused).toHaveLength(7);
    for (const error of refused) {
      expect(error).toMatchObject({
        code: 'OPEN_DISPUTES_CAP_REACHED',
        retryAfterSec: OPEN_DISPUTES_RETRY_AFTER_SEC,
        message: expect.stringContaining('3 open disputes'),
      });
    }
    expect(await storedDisputes(user)).toEqual({ open: 3, all: 3 });
  });

  it('store exactly the daily cap when a trader files in parallel, and name when the window frees a slot', async () => {
    const limits = { openPerTraderMax: 100, filedPerTraderPerDayMax: 4 };
    const user = await h.newUser({ demo: 100_000 });
    const trades = await settledTrades(user, 9);
    const firstAtMs = h.clock.nowMs();
    const results = await Promise.allSettled(trades.slice(0, 8).map(file(limits, user)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { code: 'DAILY_DISPUTES_CAP_REACHED', retryAfterSec: DISPUTE_FILING_WINDOW_MS / 1000 },
    });
    expect(await storedDisputes(user)).toEqual({ open: 4, all: 4 });

    // Resolving does not give a daily slot back: the cap counts filings, whatever became of them.
    const [filed] = await listDisputePage(h.db, { userId: user }, undefined, 1);
    await resolveDispute(deps(limits), {
      disputeId: filed!.id,
      adminId: admin,
      decision: 'confirm',
      note: 'ok',
    });
    h.clock.set(firstAtMs + 10 * 60 * 60 * 1000);
    await expect(file(limits, user)(trades[8]!)).rejects.toMatchObject({
      code: 'DAILY_DISPUTES_CAP_REACHED',
      retryAfterSec: 14 * 60 * 60,
      message: 'At most 4 disputes can be filed in 24 hours; try again in 14 h',
    });
    expect(await storedDisputes(user)).toEqual({ open: 3, all: 4 });
  });

  it('free a daily slot exactly when the oldest filing of the window turns 24 hours old', async () => {
    const limits = { openPerTraderMax: 100, filedPerTraderPerDayMax: 1 };
    const user = await h.newUser({ demo: 100_000 });
    const [first] = await settledTrades(user, 1);
    const filedAtMs = h.clock.nowMs();
    await file(limits, user)(first!);
    // Trades settled just before the window frees, so they are still within their own 24 hours.
    h.clock.set(filedAtMs + DISPUTE_FILING_WINDOW_MS - 70_000);
    const [second, third] = await settledTrades(user, 2);
    h.clock.set(filedAtMs + DISPUTE_FILING_WINDOW_MS - 1);
    await expect(file(limits, user)(second!)).rejects.toMatchObject({ retryAfterSec: 1 });
    h.clock.set(filedAtMs + DISPUTE_FILING_WINDOW_MS);
    expect((await file(limits, user)(second!)).status).toBe('open');
    await expect(file(limits, user)(third!)).rejects.toMatchObject({ code: 'DAILY_DISPUTES_CAP_REACHED' });
  });

  it('count each trader apart: one at the cap does not hold back another', async () => {
    const limits = { openPerTraderMax: 2, filedPerTraderPerDayMax: 2 };
    const flooder = await h.newUser({ demo: 100_000 });
    const other = await h.newUser({ demo: 100_000 });
    const flooded = await settledTrades(flooder, 4);
    const [own] = await settledTrades(other, 1);
    await Promise.allSettled(flooded.map(file(limits, flooder)));
    expect(await storedDisputes(flooder)).toEqual({ open: 2, all: 2 });
    expect((await file(limits, other)(own!)).status).toBe('open');
  });
});

describe('the admins’ dispute pages', () => {
  it('reach every dispute exactly once, newest first, when many share one millisecond and more arrive while paging', async () => {
    const user = await h.newUser({ demo: 100_000 });
    const trades = await settledTrades(user, 9);
    // The clock stands still: every filing gets the same created_at_ms and only the id orders them.
    const limits = { openPerTraderMax: 100, filedPerTraderPerDayMax: 100 };
    for (const id of trades.slice(0, 7)) await file(limits, user)(id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const rows = await listDisputePage(
        h.db,
        { userId: user },
        cursor === null ? undefined : decodeDisputeCursor(cursor),
        3,
      );
      const page = pageOf(rows, 3);
      seen.push(...page.rows.map((row) => row.id));
      cursor = page.nextCursor;
      // Filed mid-walk, later than everything listed: it belongs above the first page.
      if (pages === 0) {
        h.clock.set(h.clock.nowMs() + 1);
        await file(limits, user)(trades[7]!);
      }
      if (cursor === null) break;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    const all = await listDisputePage(h.db, { userId: user }, undefined, 100);
    expect(all.map((row) => row.id).slice(1)).toEqual(seen);
    expect(all[0]!.trade_id).toBe(trades[7]);
    expect(all.every((row) => row.pair === 'EURUSD')).toBe(true);
  });

  it('filter by status, trader, pair and filing time', async () => {
    const user = await h.newUser({ demo: 100_000 });
    const trades = await settledTrades(user, 2);
    const limits = { openPerTraderMax: 100, filedPerTraderPerDayMax: 100 };
    const earlyAtMs = h.clock.nowMs();
    const early = await file(limits, user)(trades[0]!);
    h.clock.set(earlyAtMs + 5_000);
    const late = await file(limits, user)(trades[1]!);
    await resolveDispute(deps(limits), {
      disputeId: early.id,
      adminId: admin,
      decision: 'confirm',
      note: 'ok',
    });
    const ids = async (filter: Parameters<typeof listDisputePage>[1]) =>
      (await listDisputePage(h.db, { userId: user, ...filter }, undefined, 50)).map((row) => row.id);
    expect(await ids({})).toEqual([late.id, early.id]);
    expect(await ids({ status: 'open' })).toEqual([late.id]);
    expect(await ids({ status: 'confirmed' })).toEqual([early.id]);
    expect(await ids({ pair: 'EURUSD' })).toEqual([late.id, early.id]);
    expect(await ids({ pair: 'GBPUSD' })).toEqual([]);
    expect(await ids({ fromMs: earlyAtMs + 1 })).toEqual([late.id]);
    expect(await ids({ toMs: earlyAtMs + 5_000 })).toEqual([early.id]);
    expect(await ids({ fromMs: earlyAtMs, toMs: earlyAtMs + 1 })).toEqual([early.id]);
    expect(await ids({ userId: randomUUID() })).toEqual([]);
  });
});
