import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCheckpoints } from '@updown/price-ingest';
import { settledTradesReadable } from '@updown/order/testing';
import { generateSigningKey } from '@updown/runtime';
import { verifyReceipt } from '@updown/verify';
import { canonicalJson } from '@updown/verify/canonical';
import { nodeCrypto } from '@updown/verify/node';
import { verifyLedger } from '@updown/wallet';
import { loadSettlementEvidence } from './evidence';
import { loadReceipt } from './receipts/receipt-document';
import { issueReceipts } from './receipts/receipt-issuer';
import type { RunningSettlement } from './settlement.service';
import { createHarness, waitFor, type Harness } from './testing/harness';

/**
 * Settlement cross-checks a pair's own feed against its reference feed (docs/feeds.md): the
 * reference's stored price in force at a trade's acceptance and at its expiry. A disagreement
 * beyond the pair's spread voids the trade with the reason recorded; the decision, with both
 * prices, is kept with the trade as its evidence.
 */

let h: Harness;
let service: RunningSettlement;
const PAIR = 'BTCUSDT';
const SPREAD_BPS = 50;

beforeAll(async () => {
  h = await createHarness();
  await h.db
    .updateTable('market_pairs')
    .set({
      provider: 'BINANCE',
      provider_symbol: 'BTC/USDT',
      reference_provider: 'COINBASE',
      reference_symbol: 'BTC-USD',
      reference_spread_bps: SPREAD_BPS,
    })
    .where('symbol', '=', PAIR)
    .execute();
  service = await h.start();
});
afterAll(async () => {
  await service.stop();
  await h.close();
});

const at = (ts: number) => h.clock.set(ts);
const waitSettled = (id: string) =>
  waitFor(async () => (await h.trade(id)).status !== 'pending', `trade ${id} to settle`);

async function reference(atMs: number, price: number, provider = 'COINBASE'): Promise<void> {
  await sql`insert into market_reference_ticks (pair, at_ms, price, provider)
            values (${PAIR}, ${atMs}, ${price}, ${provider})`.execute(h.db);
}

/** A 60 s UP trade entered at `entry` with the reference at `refAtEntry`, run to its expiry. */
async function trade(options: {
  entry: number;
  refAtEntry: number | null;
  exit: number;
  refAtExpiry: number | null;
}) {
  const t = h.clock.nowMs() + 1_000;
  at(t);
  if (options.refAtEntry !== null) await reference(t - 300, options.refAtEntry);
  await h.tick(PAIR, t, options.entry);
  const user = await h.newUser({ real: 10_000 });
  const placed = await h.place({
    userId: user,
    pair: PAIR,
    direction: 'UP',
    amountCents: 1_000,
    accountType: 'real',
  });
  if (options.refAtExpiry !== null) await reference(t + 59_000, options.refAtExpiry);
  at(t + 59_500);
  await h.tick(PAIR, t + 59_500, options.exit);
  at(t + 60_500);
  await h.tick(PAIR, t + 60_500, options.exit);
  await waitSettled(placed.id);
  return { row: await h.trade(placed.id), user, evidence: await loadSettlementEvidence(h.db, placed.id) };
}

describe('settlement against a reference feed', () => {
  it('settles normally while the feeds agree, keeping both prices as evidence', async () => {
    const { row, evidence } = await trade({
      entry: 100_000,
      refAtEntry: 100_020,
      exit: 100_500,
      refAtExpiry: 100_480,
    });
    expect(row).toMatchObject({ status: 'won', void_reason: null });
    expect(evidence.reference_check).toMatchObject({
      provider: 'COINBASE',
      spread_bps: SPREAD_BPS,
      entry: { price: 100_000, reference_price: 100_020 },
      expiry: { price: 100_500, reference_price: 100_480 },
      decision: 'agreed',
    });
    expect(evidence.reference_check!.entry.divergence_bps).toBeCloseTo(1.9996, 4);
  });

  it('voids a trade whose feeds disagreed at expiry and returns the stake', async () => {
    // The pair's own feed jumps 3% at expiry; the reference does not.
    const { row, user, evidence } = await trade({
      entry: 100_000,
      refAtEntry: 100_000,
      exit: 103_000,
      refAtExpiry: 100_010,
    });
    expect(row).toMatchObject({
      status: 'void',
      void_reason: 'feeds_diverged_at_expiry',
      pnl_cents: 0,
      exit_price: null,
    });
    expect(await h.balances(user)).toMatchObject({ real: 10_000, real_in_play: 0 });
    expect(evidence.reference_check).toMatchObject({
      decision: 'feeds_diverged_at_expiry',
      expiry: { price: 103_000, reference_price: 100_010 },
    });
    expect(evidence.reference_check!.expiry!.divergence_bps).toBeGreaterThan(SPREAD_BPS);
  });

  it('voids a trade whose feeds disagreed at entry', async () => {
    const { row } = await trade({ entry: 100_000, refAtEntry: 98_000, exit: 100_500, refAtExpiry: 100_500 });
    expect(row).toMatchObject({ status: 'void', void_reason: 'feeds_diverged_at_entry' });
  });

  it('settles on its own feed, saying so, when the reference had no price at expiry', async () => {
    const { row, evidence } = await trade({
      entry: 100_000,
      refAtEntry: 100_000,
      exit: 99_000,
      refAtExpiry: null,
    });
    expect(row).toMatchObject({ status: 'lost', void_reason: null });
    expect(evidence.reference_check).toMatchObject({
      decision: 'reference_unavailable',
      expiry: { price: 99_000, reference_price: null, divergence_bps: null },
    });
  });

  it('gives a trade voided by divergence a receipt carrying the reference prices, which verifies offline', async () => {
    const { row } = await trade({ entry: 100_000, refAtEntry: 100_000, exit: 102_000, refAtExpiry: 100_000 });
    expect(row.void_reason).toBe('feeds_diverged_at_expiry');
    const key = generateSigningKey();
    await signCheckpoints(h.db, key, h.clock);
    await settledTradesReadable(h.db, [row.id]);
    await issueReceipts(h.db, { key, nowMs: h.clock.nowMs(), batch: 1_000, waitMsMax: 300_000 });
    const found = await loadReceipt(h.db, row.id);
    if (found.status !== 'issued') throw new Error(`no receipt: ${found.status}`);
    const { receipt } = found.document;
    expect(receipt).toMatchObject({
      outcome: 'void',
      rule: 'feeds_diverged_at_expiry',
      reference: { provider: 'COINBASE', spreadBps: SPREAD_BPS, entryPrice: '100000', expiryPrice: '100000' },
    });
    expect((await verifyReceipt(found.document, key.keySet, nodeCrypto)).verdict).toBe('valid');

    // Had the platform signed a reference price that agreed, the verifier's rules would not void it.
    const agreeing = { ...receipt, reference: { ...receipt.reference!, expiryPrice: '102000' } };
    const signed = key.signText(canonicalJson(agreeing));
    const forged = {
      ...found.document,
      receipt: agreeing,
      signature: { ...found.document.signature, sig: signed.sig },
    };
    const report = await verifyReceipt(forged, key.keySet, nodeCrypto);
    expect(report.verdict).toBe('invalid');
    expect(report.steps.find((step) => step.id === 'outcome')).toMatchObject({ status: 'fail' });
  });

  it("reads only the configured reference's ticks, and keeps the ledger balanced", async () => {
    // Another provider's tick at expiry, far off, is not this pair's reference.
    const t = h.clock.nowMs() + 1_000;
    await reference(t + 59_200, 50_000, 'KRAKEN');
    const { row } = await trade({ entry: 100_000, refAtEntry: 100_000, exit: 100_100, refAtExpiry: 100_100 });
    expect(row).toMatchObject({ status: 'won' });
    expect((await verifyLedger(h.db)).violations).toEqual([]);
  });
});
