import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '@updown/wallet';
import { createHarness, metricValue, waitFor, type Harness } from './testing/harness';
import type { RunningSettlement } from './settlement.service';
import { loadSettlementEvidence } from './evidence';
import { settledEventId } from './settled-events';

let h: Harness;
let service: RunningSettlement;

beforeAll(async () => {
  h = await createHarness();
  service = await h.start();
});
afterAll(async () => {
  await h.close();
});

/** Moves the manual clock to `ts` (firing the service's timers on the way). */
const at = (ts: number) => h.clock.set(ts);
const settled = async (id: string) => (await h.trade(id)).status !== 'pending';
const waitSettled = (...ids: string[]) =>
  waitFor(
    async () => (await Promise.all(ids.map(settled))).every(Boolean),
    `trades ${ids.join(', ')} to settle`,
  );

async function expectLedgerClean(): Promise<void> {
  const report = await verifyLedger(h.db);
  expect(report.violations).toEqual([]);
}

describe('settlement on the stored ticks', () => {
  it('settles on the last tick at or before expiry, not the first after, and pays the right amounts', async () => {
    const start = h.clock.nowMs() + 1_000;
    at(start);
    await h.tick('EURUSD', start, 1.1);
    const user = await h.newUser({ demo: 1_000_000, real: 50_000 });
    const up = await h.place({
      userId: user,
      pair: 'EURUSD',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    const down = await h.place({
      userId: user,
      pair: 'EURUSD',
      direction: 'DOWN',
      amountCents: 2_500,
      accountType: 'real',
    });
    const flat = await h.place({
      userId: user,
      pair: 'EURUSD',
      direction: 'DOWN',
      amountCents: 999,
      accountType: 'real',
    });
    expect(up.expiry_at_ms).toBe(start + 60_000);
    expect(await h.balances(user)).toMatchObject({
      demo: 999_000,
      demo_in_play: 1_000,
      real: 46_501,
      real_in_play: 3_499,
    });

    at(start + 30_000);
    await h.tick('EURUSD', start + 30_000, 1.2);
    at(start + 59_000);
    const exitId = await h.tick('EURUSD', start + 59_000, 1.15);
    expect(await service.settleDue()).toBe(0); // nothing has expired yet
    at(start + 60_400);
    await h.tick('EURUSD', start + 60_400, 1.0); // after expiry: the trigger, not the price
    await waitSettled(up.id, down.id, flat.id);

    const won = await h.trade(up.id);
    expect(won).toMatchObject({
      status: 'won',
      exit_price: 1.15,
      exit_at_ms: start + 59_000,
      exit_tick_id: exitId,
      pnl_cents: 800,
    });
    expect(won.settled_at_ms).toBe(start + 60_400);
    expect(await h.trade(down.id)).toMatchObject({ status: 'lost', exit_price: 1.15, pnl_cents: -2_500 });
    expect(await h.trade(flat.id)).toMatchObject({ status: 'lost', pnl_cents: -999 });
    // Won: stake + floor(10.00 × 80 / 100). Lost: nothing back.
    expect(await h.balances(user)).toMatchObject({
      demo: 999_000 + 1_000 + 800,
      demo_in_play: 0,
      real: 46_501,
      real_in_play: 0,
    });
    await expectLedgerClean();
  });

  it('rounds a win down to the cent and refunds a draw', async () => {
    const start = h.clock.nowMs() + 1_000;
    at(start);
    await h.tick('GBPUSD', start, 1.3);
    const user = await h.newUser({ real: 10_000 });
    await h.db.updateTable('market_pairs').set({ payout_pct: 82.5 }).where('symbol', '=', 'GBPUSD').execute();
    const win = await h.place({
      userId: user,
      pair: 'GBPUSD',
      direction: 'UP',
      amountCents: 333,
      accountType: 'real',
    });
    const round = await h.place({
      userId: user,
      pair: 'GBPUSD',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'real',
    });
    at(start + 1);
    await h.tick('GBPUSD', start + 1, 1.3);
    at(start + 60_000);
    await h.tick('GBPUSD', start + 60_000, 1.31); // exactly at expiry: the exit of both
    expect(await service.settleDue()).toBe(0); // a tick at expiry is the exit, not the trigger
    at(start + 60_001);
    await h.tick('GBPUSD', start + 60_001, 1.3);
    await waitSettled(win.id, round.id);
    expect(await h.trade(win.id)).toMatchObject({
      status: 'won',
      exit_price: 1.31,
      exit_at_ms: start + 60_000,
      pnl_cents: 274,
    });
    expect(await h.trade(round.id)).toMatchObject({ status: 'won', pnl_cents: 825 });
    expect(await h.balances(user)).toMatchObject({ real: 10_000 + 274 + 825, real_in_play: 0 });
    await h.db.updateTable('market_pairs').set({ payout_pct: 80 }).where('symbol', '=', 'GBPUSD').execute();

    const start2 = h.clock.nowMs() + 1_000;
    at(start2);
    await h.tick('GBPUSD', start2, 1.4);
    const same = await h.place({
      userId: user,
      pair: 'GBPUSD',
      direction: 'DOWN',
      amountCents: 500,
      accountType: 'real',
    });
    at(start2 + 59_999);
    await h.tick('GBPUSD', start2 + 59_999, 1.4);
    at(start2 + 60_100);
    await h.tick('GBPUSD', start2 + 60_100, 1.5);
    await waitSettled(same.id);
    expect(await h.trade(same.id)).toMatchObject({ status: 'draw', pnl_cents: 0, exit_price: 1.4 });
    expect(await h.balances(user)).toMatchObject({ real: 10_000 + 274 + 825, real_in_play: 0 });
    await expectLedgerClean();
  });

  it('separates a trade placed 1 ms before a tick from one placed 1 ms after it, at entry and at exit', async () => {
    const t = h.clock.nowMs() + 3_000;
    at(t - 2_000);
    await h.tick('USDJPY', t - 2_000, 155.0);
    const user = await h.newUser({ demo: 100_000 });
    at(t - 1);
    const before = await h.place({
      userId: user,
      pair: 'USDJPY',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    at(t);
    await h.tick('USDJPY', t, 155.5);
    at(t + 1);
    const after = await h.place({
      userId: user,
      pair: 'USDJPY',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    expect(before.entry_price).toBe(155.0);
    expect(after.entry_price).toBe(155.5);
    expect(after.expiry_at_ms - before.expiry_at_ms).toBe(2);

    at(t + 59_000);
    await h.tick('USDJPY', t + 59_000, 155.2);
    // Between the two expiries: after the first trade's expiry (its trigger), the second one's exit.
    at(t + 60_000);
    await h.tick('USDJPY', t + 60_000, 155.4);
    await waitSettled(before.id);
    expect(await h.trade(before.id)).toMatchObject({ status: 'won', exit_price: 155.2 });
    expect(await settled(after.id)).toBe(false);
    at(t + 60_300);
    await h.tick('USDJPY', t + 60_300, 156);
    await waitSettled(after.id);
    expect(await h.trade(after.id)).toMatchObject({
      status: 'lost',
      exit_price: 155.4,
      exit_at_ms: t + 60_000,
    });
    await expectLedgerClean();
  });

  it('settles two expiries in the same second on their own exit ticks', async () => {
    const t = Math.ceil((h.clock.nowMs() + 1_000) / 1_000) * 1_000;
    at(t + 100);
    await h.tick('XAUUSD', t + 100, 4_000);
    const user = await h.newUser({ demo: 100_000 });
    const first = await h.place({
      userId: user,
      pair: 'XAUUSD',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    at(t + 700);
    const second = await h.place({
      userId: user,
      pair: 'XAUUSD',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    at(t + 60_050);
    await h.tick('XAUUSD', t + 60_050, 4_010);
    at(t + 60_400);
    await h.tick('XAUUSD', t + 60_400, 3_990);
    await waitSettled(first.id);
    at(t + 60_800);
    await h.tick('XAUUSD', t + 60_800, 4_020);
    await waitSettled(second.id);
    expect(await h.trade(first.id)).toMatchObject({ status: 'won', exit_price: 4_010 });
    expect(await h.trade(second.id)).toMatchObject({ status: 'lost', exit_price: 3_990 });
    await expectLedgerClean();
  });

  it('voids a trade with no tick in the 10 s before expiry and refunds the stake', async () => {
    const t = h.clock.nowMs() + 1_000;
    at(t);
    await h.tick('ETHUSD', t, 3_100);
    const user = await h.newUser({ real: 5_000, bonus: 5_000 });
    // Cash first, then bonus: 50.00 + 20.00 of a 70.00 stake.
    const trade = await h.place({
      userId: user,
      pair: 'ETHUSD',
      direction: 'UP',
      amountCents: 7_000,
      accountType: 'real',
    });
    expect(trade).toMatchObject({ stake_cash_cents: 5_000, stake_bonus_cents: 2_000 });
    at(t + 49_999);
    await h.tick('ETHUSD', t + 49_999, 3_200); // 10.001 s before expiry: too old to be the exit
    at(t + 60_500);
    await h.tick('ETHUSD', t + 60_500, 3_300);
    await waitSettled(trade.id);
    expect(await h.trade(trade.id)).toMatchObject({
      status: 'void',
      pnl_cents: 0,
      exit_price: null,
      exit_at_ms: null,
      exit_tick_id: null,
    });
    expect(await h.balances(user)).toMatchObject({
      real: 5_000,
      bonus: 5_000,
      real_in_play: 0,
      bonus_in_play: 0,
    });
    await expectLedgerClean();
  });

  it('settles on a quiet feed 10 s after expiry on the last stored price', async () => {
    const t = h.clock.nowMs() + 1_000;
    at(t);
    await h.tick('BTCUSDT', t, 95_000);
    const user = await h.newUser({ demo: 100_000 });
    const trade = await h.place({
      userId: user,
      pair: 'BTCUSDT',
      direction: 'DOWN',
      amountCents: 2_000,
      accountType: 'demo',
    });
    at(t + 57_000);
    await h.tick('BTCUSDT', t + 57_000, 94_000);
    at(t + 60_000 + 9_999);
    expect(await service.settleDue()).toBe(0);
    expect(await settled(trade.id)).toBe(false);
    at(t + 70_000); // the quiet-feed timer fires
    await waitSettled(trade.id);
    expect(await h.trade(trade.id)).toMatchObject({
      status: 'won',
      exit_price: 94_000,
      settled_at_ms: t + 70_000,
      pnl_cents: 1_600,
    });
    expect(await h.balances(user)).toMatchObject({ demo: 100_000 + 1_600 });
    await expectLedgerClean();
  });

  it('waits for the post-expiry tick to be stored when the bus is ahead of the database', async () => {
    const t = h.clock.nowMs() + 1_000;
    at(t);
    await h.tick('EURUSD', t, 1.2);
    const user = await h.newUser({ demo: 100_000 });
    const trade = await h.place({
      userId: user,
      pair: 'EURUSD',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    at(t + 59_500);
    await h.tick('EURUSD', t + 59_500, 1.25);
    at(t + 60_200);
    await h.tick('EURUSD', t + 60_200, 1.1, { store: false }); // on the bus, not yet stored
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await service.settleDue()).toBe(0);
    expect(await settled(trade.id)).toBe(false);
    await h.storeTicks([{ pair: 'EURUSD', atMs: t + 60_200, price: 1.1 }]);
    at(t + 60_300); // the recheck timer fires
    await waitSettled(trade.id);
    expect(await h.trade(trade.id)).toMatchObject({
      status: 'won',
      exit_price: 1.25,
      settled_at_ms: t + 60_300,
    });
  });

  it('publishes one trades.settled.v1 per trade through the outbox, with an id derived from the trade', async () => {
    await waitFor(async () => {
      const { n } = await h.db
        .selectFrom('trades')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '!=', 'pending')
        .executeTakeFirstOrThrow();
      return h.settledEvents.length >= n;
    }, 'settled events to be relayed');
    const ids = h.settledEvents.map((e) => e.payload.tradeId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const event of h.settledEvents) expect(event.id).toBe(settledEventId(event.payload.tradeId));
    const row = await h.trade(ids[0]!);
    const event = h.settledEvents[0]!;
    expect(event.payload).toMatchObject({
      status: row.status,
      exitPrice: row.exit_price,
      pnlCents: row.pnl_cents,
      settledAtMs: row.settled_at_ms,
      pair: row.pair,
    });
    expect(await metricValue(h.registry, 'updown_trades_settled_total')).toBe(ids.length);
    expect(await metricValue(h.registry, 'updown_trades_settled_total', { outcome: 'void' })).toBe(1);
  });

  it('shows the stored entry and exit ticks and the windows around them as evidence', async () => {
    const t = h.clock.nowMs() + 1_000;
    at(t);
    const entryId = await h.tick('EURUSD', t, 1.3);
    const user = await h.newUser({ demo: 100_000 });
    at(t + 2_000);
    const trade = await h.place({
      userId: user,
      pair: 'EURUSD',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    // A tick every 50 ms from 15 s before to 15 s after expiry: more than a window may hold.
    const ticks = Array.from({ length: 600 }, (_, i) => ({
      pair: 'EURUSD',
      atMs: trade.expiry_at_ms - 15_000 + i * 50,
      price: 1.3 + i / 100_000,
    }));
    await h.storeTicks(ticks);
    at(trade.expiry_at_ms + 15_000);
    await waitSettled(trade.id);
    const evidence = await loadSettlementEvidence(h.db, trade.id);
    const settledRow = await h.trade(trade.id);
    expect(evidence.entry_tick).toEqual({ id: entryId, ts: t, price: 1.3 });
    expect(evidence.exit_tick).toEqual({
      id: settledRow.exit_tick_id,
      ts: trade.expiry_at_ms,
      price: settledRow.exit_price,
    });
    expect(evidence.entry_window.map((w) => w.id)).toContain(entryId);
    const window = evidence.exit_window;
    expect(window).toHaveLength(200);
    expect(window.map((w) => w.id)).toContain(settledRow.exit_tick_id);
    expect(window.map((w) => w.ts)).toEqual(window.map((w) => w.ts).sort((a, b) => a - b));
    expect(window[0]!.ts).toBeGreaterThanOrEqual(trade.expiry_at_ms - 10_000);
    expect(window.at(-1)!.ts).toBeLessThanOrEqual(trade.expiry_at_ms + 5_000);
    expect(await loadSettlementEvidence(h.db, '00000000-0000-4000-8000-000000000000')).toEqual({
      entry_tick: null,
      exit_tick: null,
      entry_window: [],
      exit_window: [],
      reference_check: null,
    });
  });
});

describe('a failing settlement pass', () => {
  it('rolls the batch back, backs off and settles on the retry', async () => {
    await service.stop();
    let failuresLeft = 1;
    const flaky = h.db.withPlugin({
      transformQuery(args) {
        // The ledger write of the batch fails once, after the trades were already marked settled.
        if (failuresLeft > 0 && JSON.stringify(args.node).includes('insert into ledger_entries')) {
          failuresLeft--;
          throw new Error('connection reset');
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const retrying = await h.start({ retryDelayMsMin: 500 }, flaky);
    const t = h.clock.nowMs() + 1_000;
    at(t);
    await h.tick('EURUSD', t, 1.1);
    const user = await h.newUser({ demo: 100_000 });
    const trade = await h.place({
      userId: user,
      pair: 'EURUSD',
      direction: 'UP',
      amountCents: 1_000,
      accountType: 'demo',
    });
    at(t + 59_000);
    await h.tick('EURUSD', t + 59_000, 1.2);
    at(t + 60_100);
    await h.tick('EURUSD', t + 60_100, 1.0);
    await waitFor(
      async () => (await metricValue(h.registry, 'updown_settlement_failures_total')) === 1,
      'the failure',
    );
    expect(await h.trade(trade.id)).toMatchObject({ status: 'pending', settled_at_ms: null });
    expect(await h.balances(user)).toMatchObject({ demo_in_play: 1_000 });
    // Ticks during the backoff do not bypass it.
    await h.tick('EURUSD', t + 60_200, 1.0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await settled(trade.id)).toBe(false);
    at(t + 60_600);
    await waitSettled(trade.id);
    expect(await h.trade(trade.id)).toMatchObject({
      status: 'won',
      settled_at_ms: t + 60_600,
      exit_price: 1.2,
    });
    expect(await h.balances(user)).toMatchObject({ demo: 100_000 + 800, demo_in_play: 0 });
    await expectLedgerClean();
    await retrying.stop();
  });
});
