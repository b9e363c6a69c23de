import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainHash, type Checkpoint } from '@updown/price-ingest';
import { generateSigningKey } from '@updown/runtime';
import { verifyReceipt } from '@updown/verify';
import { GENESIS_HASH, priceText } from '@updown/verify/chain';
import { nodeCrypto } from '@updown/verify/node';
import { pnlCents, settle, type SettlingTrade } from '../settlement.domain';
import { receiptIdOf } from './receipt-id';
import { buildReceipt, type Receipt, type ReceiptTick } from './receipt.domain';

/**
 * The server's receipt builder against the offline verifier, on random settlement histories: a
 * pair's random walk chained as price-ingest chains it, a trade entering on one of its ticks and
 * settled by the settlement rules, the checkpoint covering it signed, the receipt built and signed.
 * Every such receipt verifies; any single change to a signed field makes it fail.
 */

const key = generateSigningKey();
const PAIR = 'PROPUSD';

interface History {
  readonly document: { receipt: Receipt; signature: ReturnType<typeof key.sign>; proof: unknown };
}

function chain(prices: readonly number[], startMs: number, stepsMs: readonly number[]): ReceiptTick[] {
  const ticks: ReceiptTick[] = [];
  let prev: Buffer = Buffer.from(GENESIS_HASH, 'hex');
  let atMs = startMs;
  prices.forEach((price, i) => {
    atMs += stepsMs[i % stepsMs.length]!;
    const hash = chainHash(PAIR, i + 1, atMs, price, prev);
    ticks.push({
      seq: i + 1,
      atMs,
      price: priceText(price),
      prevHash: prev.toString('hex'),
      hash: hash.toString('hex'),
    });
    prev = hash;
  });
  return ticks;
}

function history(input: {
  prices: number[];
  steps: number[];
  entryIndex: number;
  durationMs: number;
  direction: 'UP' | 'DOWN';
  stakeCents: number;
  payoutPct: number;
}): History | undefined {
  const walk = chain(input.prices, 1_767_000_000_000, input.steps);
  const entry = walk[input.entryIndex % walk.length]!;
  const expiryAtMs = entry.atMs + input.durationMs;
  // A receipt is issued once a tick after the expiry is stored: the walk goes on past it.
  const last = walk[walk.length - 1]!;
  const ticks =
    last.atMs > expiryAtMs
      ? walk
      : chain([...input.prices, input.prices[0]!], 1_767_000_000_000, [
          ...input.prices.map((_, i) => input.steps[i % input.steps.length]!),
          expiryAtMs - last.atMs + 1,
        ]);
  const exitIndex = ticks.findLastIndex((t) => t.atMs <= expiryAtMs);
  const exit = ticks[exitIndex]!;
  const after = ticks[exitIndex + 1]!;
  const head = ticks[ticks.length - 1]!;
  const checkpoint: Checkpoint = {
    type: 'updown.checkpoint.v1',
    pair: PAIR,
    fromSeq: 1,
    toSeq: head.seq,
    ticks: head.seq,
    fromMs: ticks[0]!.atMs,
    toMs: head.atMs,
    startHash: GENESIS_HASH,
    headHash: head.hash,
    signedAtMs: head.atMs + 1,
  };
  const signedCheckpoint = { checkpoint, signature: key.sign(checkpoint) };
  const trade: SettlingTrade = {
    tradeId: '0b7e8a52-3c1d-4a51-9d1e-6f2a8c9b0d11',
    userId: '5d2f0c1e-7a3b-4c8d-9e1f-2a3b4c5d6e7f',
    direction: input.direction,
    accountType: 'real',
    amountCents: input.stakeCents,
    stakeCashCents: input.stakeCents,
    stakeBonusCents: 0,
    payoutPct: input.payoutPct,
    entryPrice: Number(entry.price),
    expiryAtMs,
  };
  const result = settle(trade, { id: exitIndex + 1, atMs: exit.atMs, price: Number(exit.price) });
  expect(result.pnlCents).toBe(pnlCents(trade.amountCents, trade.payoutPct, result.status));
  const receipt = buildReceipt({
    receiptId: receiptIdOf(trade.tradeId),
    trade: {
      tradeId: trade.tradeId,
      userId: trade.userId,
      pair: PAIR,
      direction: trade.direction,
      accountType: 'real',
      amountCents: trade.amountCents,
      payoutPct: trade.payoutPct,
      acceptedAtMs: entry.atMs,
      expiryAtMs,
      entryPrice: entry.price,
      status: result.status,
      pnlCents: result.pnlCents,
      settledAtMs: expiryAtMs + 500,
      referenceCheck: null,
    },
    evidence: {
      entry,
      exit,
      after,
      entryCheckpoint: { toSeq: head.seq, headHash: head.hash },
      exitCheckpoint: { toSeq: head.seq, headHash: head.hash },
    },
    ledgerKey: `trade:${trade.tradeId}:settle`,
    ledgerEntryIds: [42],
    issuedAtMs: Math.max(head.atMs, expiryAtMs + 500) + 2,
  });
  return {
    document: {
      receipt,
      signature: key.sign(receipt),
      proof: {
        entry: { checkpoint: signedCheckpoint, segment: ticks.slice(entry.seq - 1) },
        exit: { checkpoint: signedCheckpoint, segment: ticks.slice(exit.seq - 1) },
      },
    },
  };
}

const histories = fc.record({
  prices: fc.array(
    fc.integer({ min: 90_000, max: 90_020 }).map((n) => n / 100),
    { minLength: 3, maxLength: 60 },
  ),
  steps: fc.array(fc.integer({ min: 50, max: 15_000 }), { minLength: 1, maxLength: 5 }),
  entryIndex: fc.nat(),
  durationMs: fc.constantFrom(60_000, 120_000, 300_000, 1_000, 20_000),
  direction: fc.constantFrom('UP' as const, 'DOWN' as const),
  stakeCents: fc.integer({ min: 100, max: 500_000 }),
  payoutPct: fc.constantFrom(80, 82.5, 95, 99, 0, 100),
});

/** Every leaf of the receipt, as a path. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) =>
      leaves(v, [...path, Array.isArray(value) ? Number(k) : k]),
    );
  }
  return [path];
}

function changed(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string')
    return /^[0-9a-f]{64}$/.test(value)
      ? `${value.slice(0, 63)}${value.endsWith('0') ? '1' : '0'}`
      : `${value}0`;
  if (value === null) return 0;
  return !value;
}

describe('receipts built by settlement, checked by the offline verifier', () => {
  it('verify for every random settlement history', async () => {
    await fc.assert(
      fc.asyncProperty(histories, async (input) => {
        const built = history(input)!;
        const checked = await verifyReceipt(built.document, key.keySet, nodeCrypto);
        expect(checked.steps.filter((s: { status: string }) => s.status === 'fail')).toEqual([]);
        expect(checked.verdict).toBe('valid');
      }),
      { numRuns: 150 },
    );
  });

  it('fail after any single change to a signed field', async () => {
    await fc.assert(
      fc.asyncProperty(histories, fc.nat(), async (input, pick) => {
        const built = history(input)!;
        const paths = leaves(built.document.receipt);
        const target = paths[pick % paths.length]!;
        const receipt = structuredClone(built.document.receipt) as unknown as Record<
          string | number,
          unknown
        >;
        let node: Record<string | number, unknown> = receipt;
        for (const step of target.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
        const last = target[target.length - 1]!;
        node[last] = changed(node[last]);
        const checked = await verifyReceipt({ ...built.document, receipt }, key.keySet, nodeCrypto);
        expect(checked.verdict, target.join('.')).not.toBe('valid');
      }),
      { numRuns: 200 },
    );
  });
});
