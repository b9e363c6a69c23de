import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCheckpoints } from '@updown/price-ingest';
import { settledTradesReadable } from '@updown/order/testing';
import { generateSigningKey } from '@updown/runtime';
import { canonicalJson } from '@updown/verify/canonical';
import { verifyReceipt } from '@updown/verify';
import { nodeCrypto } from '@updown/verify/node';
import { entryIdsByKey } from '@updown/wallet';
import { createHarness, waitFor, type Harness } from '../testing/harness';
import type { RunningSettlement } from '../settlement.service';
import { settlementKey } from '../settlement.domain';
import { receiptIdOf } from './receipt-id';
import { issueReceipts } from './receipt-issuer';
import { loadReceipt } from './receipt-document';
import { verifyReceipts } from './receipt-audit.read-model';

let h: Harness;
let service: RunningSettlement;
const key = generateSigningKey();
const WAIT_MS_MAX = 300_000;

beforeAll(async () => {
  h = await createHarness();
  service = await h.start();
});
afterAll(async () => {
  await h.close();
});

const at = (ts: number) => h.clock.set(ts);
const issue = () =>
  issueReceipts(h.db, { key, nowMs: h.clock.nowMs(), batch: 1_000, waitMsMax: WAIT_MS_MAX });
const settledOf = (id: string) =>
  waitFor(async () => (await h.trade(id)).status !== 'pending', `trade ${id} to settle`);
async function documentOf(tradeId: string) {
  const found = await loadReceipt(h.db, tradeId);
  if (found.status !== 'issued') throw new Error(`no receipt for ${tradeId}: ${found.status}`);
  return found.document;
}

/** Places a 60 s trade on `pair` entering at `entry`, then ticks `exit` 0.5 s before expiry and `after` 0.3 s after. */
async function settledTrade(
  pair: string,
  direction: 'UP' | 'DOWN',
  entry: number,
  exit: number,
  after: number,
) {
  const t = h.clock.nowMs() + 1_000;
  at(t);
  await h.tick(pair, t, entry);
  const user = await h.newUser({ demo: 100_000, real: 100_000 });
  const trade = await h.place({ userId: user, pair, direction, amountCents: 1_000, accountType: 'real' });
  at(t + 59_500);
  await h.tick(pair, t + 59_500, exit);
  at(t + 60_300);
  await h.tick(pair, t + 60_300, after);
  await settledOf(trade.id);
  await settledTradesReadable(h.db, [trade.id]);
  return { user, trade: await h.trade(trade.id) };
}

describe('receipts', () => {
  it('are issued once a signed checkpoint covers the exit, in settlement order, and verify offline', async () => {
    const { trade } = await settledTrade('EURUSD', 'UP', 1.1, 1.12, 1.09);
    expect(trade.status).toBe('won');
    expect(await issue()).toMatchObject({ issued: 0, waiting: 1 }); // no checkpoint yet
    expect((await loadReceipt(h.db, trade.id)).status).toBe('pending');
    await signCheckpoints(h.db, key, h.clock);
    expect(await issue()).toMatchObject({ issued: 1, waiting: 0 });

    const document = await documentOf(trade.id);
    const { receipt } = document;
    const [entryId] = (await entryIdsByKey(h.db, [settlementKey(trade.id)])).values();
    expect(receipt).toMatchObject({
      type: 'updown.receipt.v1',
      receiptId: receiptIdOf(trade.id),
      tradeId: trade.id,
      pair: 'EURUSD',
      direction: 'UP',
      account: 'real',
      stakeCents: 1_000,
      payoutBasisPoints: Math.round(trade.payout_pct * 100),
      expiryAtMs: trade.expiry_at_ms,
      entryPrice: '1.1',
      outcome: 'won',
      rule: 'exit_above_entry',
      pnlCents: trade.pnl_cents,
      ledgerKey: settlementKey(trade.id),
      ledgerEntryIds: [String(entryId)],
    });
    expect(receipt.exitTick!.price).toBe('1.12');
    expect(receipt.afterExpiryTick!.seq).toBe(receipt.exitTick!.seq + 1);
    // The signature covers the stored body exactly.
    expect(canonicalJson(receipt)).toBe(
      (
        await h.db
          .selectFrom('trade_receipts')
          .select('body')
          .where('trade_id', '=', trade.id)
          .executeTakeFirstOrThrow()
      ).body,
    );
    const checked = await verifyReceipt(document, key.keySet, nodeCrypto);
    expect(checked.steps.filter((s: { status: string }) => s.status === 'fail')).toEqual([]);
    expect(checked.verdict).toBe('valid');
  });

  it('carries its receipt id in trades.settled.v1', async () => {
    const { trade } = await settledTrade('GBPUSD', 'DOWN', 1.3, 1.31, 1.29);
    await waitFor(() => h.settledEvents.some((e) => e.payload.tradeId === trade.id), 'the settled event');
    const event = h.settledEvents.find((e) => e.payload.tradeId === trade.id)!;
    expect(event.payload.receiptId).toBe(receiptIdOf(trade.id));
  });

  it('gives a void trade (no tick in the 10 s before expiry) a receipt naming the stale exit and the rule', async () => {
    const t = h.clock.nowMs() + 1_000;
    at(t);
    await h.tick('USDJPY', t, 155);
    const user = await h.newUser({ demo: 100_000 });
    const trade = await h.place({
      userId: user,
      pair: 'USDJPY',
      direction: 'UP',
      amountCents: 500,
      accountType: 'demo',
    });
    at(t + 60_500);
    await h.tick('USDJPY', t + 60_500, 156); // the entry tick is 60 s old at expiry
    await settledOf(trade.id);
    await settledTradesReadable(h.db, [trade.id]);
    await signCheckpoints(h.db, key, h.clock);
    await issue();
    const document = await documentOf(trade.id);
    expect(document.receipt).toMatchObject({ outcome: 'void', rule: 'exit_tick_too_old', pnlCents: 0 });
    expect((await verifyReceipt(document, key.keySet, nodeCrypto)).verdict).toBe('valid');
  });

  it('are caught by the ledger check when a stored receipt is edited or re-signed with another key', async () => {
    await signCheckpoints(h.db, key, h.clock);
    await issue();
    const before = await verifyReceipts(h.db, key.keySet, h.clock.nowMs());
    expect(before.violations).toEqual([]);
    expect(before.receipts).toBeGreaterThanOrEqual(3);

    const { trade: edited } = await settledTrade('XAUUSD', 'UP', 4_000, 4_010, 3_990);
    const { trade: resigned } = await settledTrade('ETHUSD', 'DOWN', 3_000, 2_990, 3_010);
    await signCheckpoints(h.db, key, h.clock);
    await issue();
    // An edited P/L: the body no longer matches its signature, the trade or the ledger.
    await sql`update trade_receipts set body = replace(body, ${`"pnlCents":${edited.pnl_cents}`}, '"pnlCents":99999')
              where trade_id = ${edited.id}`.execute(h.db);
    // Re-signed with a key that is not the platform's.
    const other = generateSigningKey();
    const body = (
      await h.db
        .selectFrom('trade_receipts')
        .select('body')
        .where('trade_id', '=', resigned.id)
        .executeTakeFirstOrThrow()
    ).body;
    const forged = other.signText(body);
    await sql`update trade_receipts set key_id = ${forged.kid}, signature = ${Buffer.from(forged.sig, 'base64url')}
              where trade_id = ${resigned.id}`.execute(h.db);

    const after = await verifyReceipts(h.db, key.keySet, h.clock.nowMs());
    const about = (id: string) => after.violations.filter((v) => v.detail.includes(id)).map((v) => v.check);
    expect(about(edited.id)).toEqual(
      expect.arrayContaining([
        'receipt_signature_invalid',
        'receipt_trade_mismatch',
        'receipt_rule_mismatch',
        'receipt_ledger_mismatch',
      ]),
    );
    expect(about(resigned.id)).toEqual(['receipt_signature_invalid']);
    expect(after.violations.find((v) => v.detail.includes(resigned.id))!.detail).toMatch(
      /is not in the key set/,
    );

    // The offline verifier says the same of the documents.
    const editedDoc = await documentOf(edited.id);
    expect((await verifyReceipt(editedDoc, key.keySet, nodeCrypto)).verdict).toBe('invalid');
    expect((await verifyReceipt(await documentOf(resigned.id), key.keySet, nodeCrypto)).verdict).toBe(
      'invalid',
    );
  });

  it('after issue, a changed stored tick fails the receipt’s proof, naming the tick', async () => {
    const { trade } = await settledTrade('EURUSD', 'DOWN', 1.2, 1.19, 1.21);
    await signCheckpoints(h.db, key, h.clock);
    await issue();
    const exitSeq = (await documentOf(trade.id)).receipt.exitTick!.seq;
    await sql`update market_ticks set price = 1.25 where pair = 'EURUSD' and seq = ${exitSeq}`.execute(h.db);
    const checked = await verifyReceipt(await documentOf(trade.id), key.keySet, nodeCrypto);
    expect(checked.verdict).toBe('invalid');
    expect(JSON.stringify(checked.steps)).toContain(`tick ${exitSeq}`);
    await sql`update market_ticks set price = 1.19 where pair = 'EURUSD' and seq = ${exitSeq}`.execute(h.db);
  });

  it('after issue, a deleted stored tick fails the receipt’s proof, naming the gap', async () => {
    const t = h.clock.nowMs() + 1_000;
    at(t);
    await h.tick('GBPUSD', t, 1.3);
    const user = await h.newUser({ demo: 100_000 });
    const trade = await h.place({
      userId: user,
      pair: 'GBPUSD',
      direction: 'UP',
      amountCents: 500,
      accountType: 'demo',
    });
    for (const offset of [20_000, 40_000, 59_000]) {
      at(t + offset);
      await h.tick('GBPUSD', t + offset, 1.3 + offset / 1e7);
    }
    at(t + 60_200);
    await h.tick('GBPUSD', t + 60_200, 1.29);
    await settledOf(trade.id);
    await settledTradesReadable(h.db, [trade.id]);
    await signCheckpoints(h.db, key, h.clock);
    await issue();
    const entrySeq = (await documentOf(trade.id)).receipt.entryTick!.seq;
    await sql`delete from market_ticks where pair = 'GBPUSD' and seq = ${entrySeq + 1}`.execute(h.db);
    const checked = await verifyReceipt(await documentOf(trade.id), key.keySet, nodeCrypto);
    expect(checked.verdict).toBe('invalid');
    const entryChain = checked.steps.find((s: { id: string }) => s.id === 'entry-chain')!;
    expect(entryChain.status).toBe('fail');
    expect(entryChain.detail).toMatch(new RegExp(`tick ${entrySeq + 2} follows tick ${entrySeq}`));
  });

  it('waits for the tick after expiry however long, holding back no other trade, counted overdue past the bound', async () => {
    const t = h.clock.nowMs() + 1_000;
    at(t);
    await h.tick('BTCUSDT', t, 95_000);
    const user = await h.newUser({ demo: 100_000 });
    const trade = await h.place({
      userId: user,
      pair: 'BTCUSDT',
      direction: 'UP',
      amountCents: 500,
      accountType: 'demo',
    });
    at(t + 59_000);
    await h.tick('BTCUSDT', t + 59_000, 95_010);
    at(t + 60_000 + 10_001); // the feed died at expiry: settled by the quiet-feed rule
    await service.settleDue();
    await settledOf(trade.id);
    await settledTradesReadable(h.db, [trade.id]);
    await signCheckpoints(h.db, key, h.clock);
    expect(await issue()).toMatchObject({ waiting: 1, overdue: 0 });
    // A trade on a live feed that settles after it gets its receipt meanwhile.
    const { trade: live } = await settledTrade('EURUSD', 'UP', 1.3, 1.31, 1.32);
    await signCheckpoints(h.db, key, h.clock);
    expect(await issue()).toMatchObject({ issued: 1, waiting: 1 });
    expect((await loadReceipt(h.db, live.id)).status).toBe('issued');
    // Past the bound it still waits: without the tick after expiry its exit could not be proven.
    at(h.clock.nowMs() + WAIT_MS_MAX);
    expect(await issue()).toMatchObject({ issued: 0, waiting: 1, overdue: 1 });
    expect((await loadReceipt(h.db, trade.id)).status).toBe('pending');
    // The feed comes back: the first tick after the expiry proves the exit, and the receipt is issued.
    const back = h.clock.nowMs();
    await h.tick('BTCUSDT', back, 95_020);
    await signCheckpoints(h.db, key, h.clock);
    expect(await issue()).toMatchObject({ issued: 1, waiting: 0, overdue: 0 });
    const document = await documentOf(trade.id);
    expect(document.receipt.exitTick?.atMs).toBe(t + 59_000);
    expect(document.receipt.afterExpiryTick?.atMs).toBe(back);
    const checked = await verifyReceipt(document, key.keySet, nodeCrypto);
    expect(checked.firstFailure).toBeUndefined();
    expect(checked.steps.every((s: { status: string }) => s.status === 'ok')).toBe(true);
  });
});
