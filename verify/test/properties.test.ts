import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical.js';
import { nodeCrypto } from '../src/node-crypto.js';
import { ENTRY_PRICE_AGE_MS_MAX, pnlCents, settlementRule } from '../src/rules.js';
import type { Receipt, ReceiptDocument } from '../src/verify-receipt.js';
import { verifyReceipt } from '../src/verify-receipt.js';
import { T0, buildChain, buildReceipt, clone, createSigner, keySetOf } from './fixtures.js';

const signer = createSigner();
const keySet = keySetOf(signer);

/**
 * A settlement history: a random walk of prices (steps of 0 make draws likely), gaps between
 * ticks of up to 15 s (so some exits are too old), a trade accepted after the first tick (at most
 * 5 s after the tick it enters on, or the placement would have refused it) and expiring up to a
 * minute later, and a tick after the expiry (a receipt waits for one).
 */
const history = fc
  .record({
    pair: fc.constantFrom('BTCUSDT', 'EURUSD', 'XAUUSD', 'DOGEUSDT'),
    decimals: fc.constantFrom(0, 2, 5, 8),
    startUnits: fc.integer({ min: 1, max: 10_000_000 }),
    steps: fc.array(
      fc.record({
        units: fc.oneof(fc.constant(0), fc.integer({ min: -50, max: 50 })),
        gapMs: fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 1, max: 15_000 })),
      }),
      { minLength: 1, maxLength: 60 },
    ),
    direction: fc.constantFrom('UP' as const, 'DOWN' as const),
    account: fc.constantFrom('demo' as const, 'real' as const),
    stakeCents: fc.integer({ min: 0, max: 100_000_000 }),
    payoutBasisPoints: fc.oneof(fc.constantFrom(8_000, 8_250, 9_150), fc.integer({ min: 0, max: 20_000 })),
    acceptOffset: fc.double({ min: 0, max: 1, noNaN: true }),
    durationMs: fc.integer({ min: 1, max: 60_000 }),
    afterGapMs: fc.integer({ min: 1, max: 2_000 }),
    checkpointEvery: fc.integer({ min: 1, max: 20 }),
  })
  .map((h) => {
    const scale = 10 ** h.decimals;
    const minUnits = Math.ceil(scale / 1_000_000);
    let units = Math.max(minUnits, h.startUnits);
    let atMs = T0;
    const points = [{ atMs, price: units / scale }];
    for (const step of h.steps) {
      units = Math.max(minUnits, units + step.units);
      atMs += step.gapMs;
      points.push({ atMs, price: units / scale });
    }
    const drawn = T0 + Math.floor((atMs - T0) * h.acceptOffset);
    const entryAtMs = points.filter((point) => point.atMs <= drawn).at(-1)?.atMs ?? T0;
    const acceptedAtMs = Math.min(drawn, entryAtMs + ENTRY_PRICE_AGE_MS_MAX);
    const expiryAtMs = acceptedAtMs + h.durationMs;
    points.push({ atMs: Math.max(atMs, expiryAtMs) + h.afterGapMs, price: units / scale });
    const chain = buildChain(h.pair, points);
    return {
      chain,
      checkpointEvery: h.checkpointEvery,
      trade: {
        pair: h.pair,
        direction: h.direction,
        account: h.account,
        stakeCents: h.stakeCents,
        payoutBasisPoints: h.payoutBasisPoints,
        acceptedAtMs,
        expiryAtMs,
      },
    };
  });

/** Every leaf of a JSON value (null, string, number, boolean, empty array or object) by path. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value) && value.length > 0)
    return value.flatMap((item, index) => leaves(item, [...path, index]));
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  }
  return [path];
}

function getAt(root: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): void {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path.at(-1) as string | number] = value;
}

/** A value of the same type that differs: what an editor of the file would most likely do. */
function nudge(value: unknown, salt: number): unknown {
  if (typeof value === 'number') return value + (salt % 2 === 0 ? 1 : -1);
  if (typeof value === 'string')
    return value === '' ? 'x' : `${value.slice(0, -1)}${value.at(-1) === '1' ? '2' : '1'}`;
  if (typeof value === 'boolean') return !value;
  return salt;
}

const differsCanonically = (a: unknown, b: unknown) => {
  try {
    return canonicalJson(a) !== canonicalJson(b);
  } catch {
    return true;
  }
};

describe('properties', () => {
  it('every receipt built from a random settlement history verifies', async () => {
    let voids = 0;
    let draws = 0;
    await fc.assert(
      fc.asyncProperty(history, async ({ chain, trade, checkpointEvery }) => {
        const doc = buildReceipt({ signer, chain, trade, checkpointEvery });
        if (doc.receipt.outcome === 'void') voids += 1;
        if (doc.receipt.outcome === 'draw') draws += 1;
        const result = await verifyReceipt(doc, keySet, nodeCrypto);
        expect(result.firstFailure).toBeUndefined();
        expect(result.verdict).toBe('valid');
        // The receipt's outcome is the rules' outcome from its own ticks.
        const { receipt } = doc;
        const exit = receipt.exitTick
          ? { price: Number(receipt.exitTick.price), atMs: receipt.exitTick.atMs }
          : undefined;
        const ruled = settlementRule(receipt.direction, Number(receipt.entryPrice), receipt.expiryAtMs, exit);
        expect(receipt.pnlCents).toBe(pnlCents(receipt.stakeCents, receipt.payoutBasisPoints, ruled.outcome));
      }),
      { numRuns: 150 },
    );
    expect(voids).toBeGreaterThan(0);
    expect(draws).toBeGreaterThan(0);
  });

  it('a receipt with any one leaf changed to another value of its type does not verify', async () => {
    const base = buildReceipt({
      signer,
      chain: buildChain(
        'BTCUSDT',
        Array.from({ length: 30 }, (_, i) => ({
          atMs: T0 + i * 1_000,
          price: 95_000 + ((i * 7) % 11) / 100,
        })),
      ),
      trade: {
        direction: 'DOWN',
        stakeCents: 2_500,
        payoutBasisPoints: 8_250,
        acceptedAtMs: T0 + 3_200,
        expiryAtMs: T0 + 21_700,
      },
    });
    expect((await verifyReceipt(base, keySet, nodeCrypto)).verdict).toBe('valid');
    const paths = leaves(base.receipt);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.nat(), async (path, salt) => {
        const doc: ReceiptDocument = clone(base);
        const before = getAt(doc.receipt, path);
        const after = nudge(before, salt);
        fc.pre(differsCanonically(before, after));
        setAt(doc.receipt, path, after);
        const result = await verifyReceipt(doc, keySet, nodeCrypto);
        expect(
          result.verdict,
          `receipt.${path.join('.')}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`,
        ).not.toBe('valid');
      }),
      { numRuns: 300 },
    );
  });

  it('a receipt with any one leaf replaced by an arbitrary JSON value does not verify', async () => {
    const base = buildReceipt({
      signer,
      chain: buildChain(
        'EURUSD',
        Array.from({ length: 12 }, (_, i) => ({ atMs: T0 + i * 900, price: 1.16 + i / 10_000 })),
      ),
      trade: {
        pair: 'EURUSD',
        direction: 'UP',
        stakeCents: 999,
        payoutBasisPoints: 8_000,
        acceptedAtMs: T0 + 1_000,
        expiryAtMs: T0 + 6_000,
      },
    });
    const paths = leaves(base.receipt);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.jsonValue({ maxDepth: 2 }),
        async (path, replacement) => {
          const doc = clone(base) as { receipt: Receipt };
          fc.pre(differsCanonically(getAt(doc.receipt, path), replacement));
          setAt(doc.receipt, path, replacement);
          expect((await verifyReceipt(doc, keySet, nodeCrypto)).verdict).not.toBe('valid');
        },
      ),
      { numRuns: 200 },
    );
  });
});
