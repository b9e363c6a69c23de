import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCheckpoints } from '@updown/price-ingest';
import { settledTradesReadable } from '@updown/order/testing';
import { generateSigningKey, ManualClock } from '@updown/runtime';
import { correctionKey, entryIdsByKey, verifyLedger } from '@updown/wallet';
import { createHarness, waitFor, type Harness } from '../testing/harness';
import { issueReceipts } from '../receipts/receipt-issuer';
import { DISPUTE_WINDOW_MS } from './dispute.domain';
import { openDispute, resolveDispute, type DisputeDeps } from './disputes.handler';
import { findDispute, listDisputePage, listUserDisputes } from './disputes.repository';

let h: Harness;
const key = generateSigningKey();
let deps: DisputeDeps;
const admin = randomUUID();

beforeAll(async () => {
  h = await createHarness();
  await h.start();
  deps = { db: h.db, clock: h.clock, keySet: key.keySet };
});
afterAll(async () => {
  await h.close();
});

const at = (ts: number) => h.clock.set(ts);

/** A settled demo trade with its receipt issued: UP from 1.1, exit 1.12 (won). */
async function settledWithReceipt(accountType: 'demo' | 'real' = 'demo') {
  const t = h.clock.nowMs() + 1_000;
  at(t);
  await h.tick('EURUSD', t, 1.1);
  const user = await h.newUser({ demo: 100_000, real: 100_000 });
  const trade = await h.place({
    userId: user,
    pair: 'EURUSD',
    direction: 'UP',
    amountCents: 1_000,
    accountType,
  });
  at(t + 59_500);
  await h.tick('EURUSD', t + 59_500, 1.12);
  at(t + 60_300);
  await h.tick('EURUSD', t + 60_300, 1.11);
  await waitFor(async () => (await h.trade(trade.id)).status !== 'pending', 'settlement');
  await settledTradesReadable(h.db, [trade.id]);
  await signCheckpoints(h.db, key, h.clock);
  await issueReceipts(h.db, { key, nowMs: h.clock.nowMs(), batch: 1_000, waitMsMax: 300_000 });
  return { user, trade: await h.trade(trade.id) };
}

describe('disputes', () => {
  it('replay a settlement at once and confirm it, with the evidence of every check', async () => {
    const { user, trade } = await settledWithReceipt();
    const dispute = await openDispute(deps, {
      userId: user,
      tradeId: trade.id,
      reason: 'The price went down!',
    });
    expect(dispute).toMatchObject({
      status: 'open',
      trade_id: trade.id,
      user_id: user,
      reason: 'The price went down!',
    });
    expect(dispute.replay.verdict).toBe('confirmed');
    expect(dispute.replay.summary).toMatch(/^Settlement confirmed: won/);
    expect(dispute.replay.recorded).toEqual({ outcome: 'won', pnlCents: 800 });
    expect(dispute.replay.replayed).toEqual({ outcome: 'won', pnlCents: 800 });
    expect(dispute.replay.steps.map((s) => s.id)).toEqual(
      expect.arrayContaining([
        'receipt.receipt-signature',
        'receipt.exit-chain',
        'stored-exit',
        'recorded-result',
        'ledger',
      ]),
    );
    expect(dispute.replay.steps.every((s) => s.status !== 'fail')).toBe(true);
    expect(await listUserDisputes(h.db, user, 10)).toHaveLength(1);
  });

  it('refuse a second open dispute, a stranger, an open trade, an empty reason and the 25th hour, changing nothing', async () => {
    const { user, trade } = await settledWithReceipt();
    await openDispute(deps, { userId: user, tradeId: trade.id, reason: 'first' });
    await expect(
      openDispute(deps, { userId: user, tradeId: trade.id, reason: 'again' }),
    ).rejects.toMatchObject({ code: 'DISPUTE_ALREADY_OPEN' });
    await expect(
      openDispute(deps, { userId: randomUUID(), tradeId: trade.id, reason: 'x' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(openDispute(deps, { userId: user, tradeId: trade.id, reason: '   ' })).rejects.toMatchObject(
      { code: 'VALIDATION' },
    );

    const t = h.clock.nowMs() + 1_000;
    at(t);
    await h.tick('GBPUSD', t, 1.3);
    const open = await h.place({
      userId: user,
      pair: 'GBPUSD',
      direction: 'UP',
      amountCents: 100,
      accountType: 'demo',
    });
    await expect(openDispute(deps, { userId: user, tradeId: open.id, reason: 'x' })).rejects.toMatchObject({
      code: 'TRADE_NOT_SETTLED',
    });

    const late = await settledWithReceipt();
    const later = { ...deps, clock: new ManualClock(late.trade.settled_at_ms! + DISPUTE_WINDOW_MS + 1) };
    await expect(
      openDispute(later, { userId: late.user, tradeId: late.trade.id, reason: 'x' }),
    ).rejects.toMatchObject({ code: 'DISPUTE_WINDOW_CLOSED' });
    const onTime = { ...deps, clock: new ManualClock(late.trade.settled_at_ms! + DISPUTE_WINDOW_MS) };
    expect(
      (await openDispute(onTime, { userId: late.user, tradeId: late.trade.id, reason: 'x' })).status,
    ).toBe('open');
    expect((await listUserDisputes(h.db, user, 10)).map((d) => d.trade_id)).toEqual([trade.id]);
  });

  it('let an admin confirm (nothing moves), never their own, and only once when two admins race', async () => {
    const { user, trade } = await settledWithReceipt();
    const dispute = await openDispute(deps, { userId: user, tradeId: trade.id, reason: 'check it' });
    await expect(
      resolveDispute(deps, { disputeId: dispute.id, adminId: user, decision: 'confirm', note: 'mine' }),
    ).rejects.toMatchObject({ code: 'OWN_DISPUTE' });
    await expect(
      resolveDispute(deps, { disputeId: dispute.id, adminId: admin, decision: 'correct', note: 'no' }),
    ).rejects.toMatchObject({ code: 'NOTHING_TO_CORRECT' });
    const balances = await h.balances(user);
    const audited: string[] = [];
    const withAudit: DisputeDeps = {
      ...deps,
      onResolved: async (_trx, _before, after) => void audited.push(after.status),
    };
    const results = await Promise.allSettled([
      resolveDispute(withAudit, {
        disputeId: dispute.id,
        adminId: admin,
        decision: 'confirm',
        note: 'The exit tick stands',
      }),
      resolveDispute(withAudit, {
        disputeId: dispute.id,
        adminId: randomUUID(),
        decision: 'confirm',
        note: 'me too',
      }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { code: 'DISPUTE_ALREADY_RESOLVED' },
    });
    expect(audited).toEqual(['confirmed']);
    expect(await findDispute(h.db, dispute.id)).toMatchObject({
      status: 'confirmed',
      correction_cents: null,
      resolution_note: expect.any(String),
    });
    expect(await h.balances(user)).toEqual(balances);
    expect((await listDisputePage(h.db, { status: 'confirmed' }, undefined, 50)).map((d) => d.id)).toContain(
      dispute.id,
    );
  });

  it('find a mismatch when the recorded result disagrees with the ticks, and correct it through the ledger once', async () => {
    const { user, trade } = await settledWithReceipt('real');
    // A settlement bug, simulated: the trade records a loss although its ticks say it won.
    await sql`update trades set status = 'lost', pnl_cents = -1000 where id = ${trade.id}`.execute(h.db);
    const dispute = await openDispute(deps, { userId: user, tradeId: trade.id, reason: 'I won this one' });
    expect(dispute.replay.verdict).toBe('mismatch');
    expect(dispute.replay.summary).toMatch(/^Mismatch found: The replay gives won/);
    expect(dispute.replay.replayed).toEqual({ outcome: 'won', pnlCents: 800 });
    const before = await h.balances(user);
    const resolved = await resolveDispute(deps, {
      disputeId: dispute.id,
      adminId: admin,
      decision: 'correct',
      note: 'Paid the win',
    });
    expect(resolved).toMatchObject({
      status: 'corrected',
      correction_cents: 1_800,
      ledger_entry_id: expect.any(Number),
    });
    expect((await h.balances(user)).real).toBe(before.real + 1_800);
    const entries = await entryIdsByKey(h.db, [correctionKey(dispute.id)]);
    expect(entries.get(correctionKey(dispute.id))).toBe(resolved.ledger_entry_id);
    await expect(
      resolveDispute(deps, { disputeId: dispute.id, adminId: admin, decision: 'correct', note: 'again' }),
    ).rejects.toMatchObject({ code: 'DISPUTE_ALREADY_RESOLVED' });
    expect((await h.balances(user)).real).toBe(before.real + 1_800);
    expect((await verifyLedger(h.db)).violations).toEqual([]);
  });

  it('find a mismatch naming the tick when a stored tick was changed after settlement', async () => {
    const { user, trade } = await settledWithReceipt();
    await sql`update market_ticks set price = 1.05 where pair = 'EURUSD' and at_ms = ${trade.expiry_at_ms - 500}`.execute(
      h.db,
    );
    const dispute = await openDispute(deps, { userId: user, tradeId: trade.id, reason: 'odd exit' });
    expect(dispute.replay.verdict).toBe('mismatch');
    const failed = dispute.replay.steps.filter((s) => s.status === 'fail');
    expect(failed.map((s) => s.id)).toContain('receipt.exit-chain');
    expect(failed.find((s) => s.id === 'receipt.exit-chain')!.detail).toMatch(
      /tick \d+ hash does not match its content/,
    );
    // The receipt's signed ticks still decide: the trade did win, so there is nothing to pay.
    expect(dispute.replay.replayed).toEqual({ outcome: 'won', pnlCents: 800 });
    await sql`update market_ticks set price = 1.12 where pair = 'EURUSD' and at_ms = ${trade.expiry_at_ms - 500}`.execute(
      h.db,
    );
  });
});
