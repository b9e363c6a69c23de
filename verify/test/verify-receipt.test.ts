import { describe, expect, it } from 'vitest';
import type { Tick } from '../src/chain.js';
import type { CryptoPort } from '../src/crypto-port.js';
import { nodeCrypto } from '../src/node-crypto.js';
import {
  STEPS,
  receiptDocumentProblems,
  verifyCheckpoint,
  verifyReceipt,
  type ReceiptDocument,
  type VerificationResult,
} from '../src/verify-receipt.js';
import { webCrypto } from '../src/web-crypto.js';
import {
  T0,
  buildChain,
  buildReceipt,
  checkpointOf,
  clone,
  createSigner,
  keySetOf,
  relink,
  sampleChain,
  sampleReceipt,
  signCheckpoint,
  withStatus,
} from './fixtures.js';
import { CHECKPOINT_1_2, RFC8032_KEY_SET } from './vectors.js';

const signer = createSigner();
const keySet = keySetOf(signer);
const port: CryptoPort = nodeCrypto;

const statusOf = (result: VerificationResult) =>
  Object.fromEntries(result.steps.map((s) => [s.id, s.status]));
const detailOf = (result: VerificationResult, id: string) =>
  result.steps.find((s) => s.id === id)?.detail ?? '';
const failedIds = (result: VerificationResult) =>
  result.steps.filter((s) => s.status === 'fail').map((s) => s.id);
const exitSegment = (doc: ReceiptDocument): Tick[] => {
  if (!doc.proof.exit) throw new Error('no exit proof');
  return doc.proof.exit.segment;
};

describe('verifyReceipt on a receipt as the server issues it', () => {
  it.each([
    ['node:crypto', nodeCrypto],
    ['Web Crypto', webCrypto()],
  ] as const)('is valid with the %s port, every step ok', async (_name, cryptoPort) => {
    const doc = sampleReceipt(signer);
    const result = await verifyReceipt(doc, keySet, cryptoPort);
    expect(result.verdict).toBe('valid');
    expect(result.firstFailure).toBeUndefined();
    expect(result.steps.map((s) => s.id)).toEqual(STEPS.map(([id]) => id));
    expect(result.steps.every((s) => s.status === 'ok')).toBe(true);
    expect(detailOf(result, 'receipt-signature')).toBe(`signed by key ${signer.kid}`);
    expect(detailOf(result, 'entry-chain')).toBe('4 ticks link entry tick 5 to the checkpoint head (tick 8)');
    expect(detailOf(result, 'exit-chain')).toBe('5 ticks link exit tick 20 to the checkpoint head (tick 24)');
    expect(detailOf(result, 'pnl')).toMatch(
      /^(won: 1000 × 82.5% rounded down = 825 cents|lost: the stake, -1000 cents|draw: 0 cents)$/,
    );
  });

  it('is valid when signed by a key the set now lists as retired', async () => {
    const retired = withStatus(signer, 'retired');
    const rotated = keySetOf(createSigner(), retired);
    const result = await verifyReceipt(sampleReceipt(signer), rotated, port);
    expect(result.verdict).toBe('valid');
    expect(detailOf(result, 'receipt-signature')).toBe(
      `signed by retired key ${signer.kid} (still in the key set)`,
    );
  });

  it('warns, without failing, when no tick after expiry was stored yet', async () => {
    const doc = sampleReceipt(signer, { chain: sampleChain('BTCUSDT', 20) });
    expect(doc.receipt.afterExpiryTick).toBeNull();
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('valid');
    expect(statusOf(result)['exit-tick-rule']).toBe('warn');
    expect(detailOf(result, 'exit-tick-rule')).toContain(
      'no tick after expiry was stored when the receipt was issued',
    );
  });

  it('verifies void receipts: an old exit tick, and no exit tick at all', async () => {
    const gap = buildChain('BTCUSDT', [
      { atMs: T0, price: 100 },
      { atMs: T0 + 1_000, price: 101 },
      { atMs: T0 + 30_000, price: 102 },
    ]);
    const trade = {
      direction: 'UP',
      stakeCents: 500,
      payoutBasisPoints: 8_000,
      acceptedAtMs: T0 + 500,
    } as const;
    const old = buildReceipt({ signer, chain: gap, trade: { ...trade, expiryAtMs: T0 + 12_000 } });
    expect([old.receipt.outcome, old.receipt.rule, old.receipt.pnlCents]).toEqual([
      'void',
      'exit_tick_too_old',
      0,
    ]);
    expect((await verifyReceipt(old, keySet, port)).verdict).toBe('valid');

    const late = buildChain('BTCUSDT', [
      { atMs: T0 + 10_000, price: 100 },
      { atMs: T0 + 11_000, price: 100 },
    ]);
    const none = buildReceipt({
      signer,
      chain: late,
      trade: { ...trade, acceptedAtMs: T0 + 10_500, expiryAtMs: T0 + 10_700 },
      mutate: (receipt) => {
        receipt.exitTick = null;
        receipt.afterExpiryTick = null;
        receipt.outcome = 'void';
        receipt.rule = 'no_exit_tick';
        receipt.pnlCents = 0;
        receipt.checkpoints.exit = null;
      },
    });
    none.proof.exit = null;
    const result = await verifyReceipt(none, keySet, port);
    expect(result.verdict).toBe('valid');
    expect(statusOf(result)).toMatchObject({
      'exit-chain': 'skipped',
      'exit-tick-rule': 'warn',
      outcome: 'ok',
    });
  });

  it('verifies a draw', async () => {
    const flat = buildChain(
      'EURUSD',
      Array.from({ length: 12 }, (_, i) => ({ atMs: T0 + i * 1_000, price: 1.1600123456789 })),
    );
    const doc = buildReceipt({
      signer,
      chain: flat,
      trade: {
        pair: 'EURUSD',
        direction: 'DOWN',
        stakeCents: 700,
        payoutBasisPoints: 9_000,
        acceptedAtMs: T0 + 1_500,
        expiryAtMs: T0 + 8_200,
      },
    });
    expect(doc.receipt.outcome).toBe('draw');
    expect((await verifyReceipt(doc, keySet, port)).verdict).toBe('valid');
  });
});

describe('verifyReceipt names each tampering', () => {
  it('a segment tick whose price changed', async () => {
    const doc = sampleReceipt(signer);
    const tick = exitSegment(doc)[2] as Tick;
    tick.price = '1.5';
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('invalid');
    expect(failedIds(result)).toEqual(['exit-chain']);
    expect(result.firstFailure).toBe(
      `exit-chain: exit segment: tick ${tick.seq} hash does not match its content`,
    );
  });

  it('a segment tick whose price changed and whose hashes were recomputed', async () => {
    const doc = sampleReceipt(signer);
    const segment = exitSegment(doc);
    (segment[3] as Tick).price = '1.5';
    relink('BTCUSDT', segment.slice(3), (segment[2] as Tick).hash);
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.firstFailure).toBe(
      "exit-chain: exit segment: tick 24 hash is not the checkpoint's headHash",
    );
  });

  it('a segment tick removed', async () => {
    const doc = sampleReceipt(signer);
    exitSegment(doc).splice(3, 1);
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.firstFailure).toBe(
      'exit-chain: exit segment: tick 24 follows tick 22: seqs are not consecutive; ' +
        'exit segment: tick 24 prevHash does not equal the hash of tick 22',
    );
  });

  it('a tick inserted', async () => {
    const doc = sampleReceipt(signer);
    const segment = doc.proof.entry?.segment ?? [];
    const copy = { ...(segment[1] as Tick), atMs: (segment[1] as Tick).atMs + 1 };
    segment.splice(2, 0, copy);
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['entry-chain']);
    expect(result.firstFailure).toBe(
      'entry-chain: entry segment: tick 6 hash does not match its content; ' +
        'entry segment: tick 6 follows tick 6: seqs are not consecutive; ' +
        'entry segment: tick 6 prevHash does not equal the hash of tick 6',
    );
  });

  it('a tick inserted with the later ticks renumbered and rehashed', async () => {
    const doc = sampleReceipt(signer);
    const segment = doc.proof.entry?.segment ?? [];
    segment.splice(2, 0, { ...(segment[1] as Tick), atMs: (segment[1] as Tick).atMs + 1 });
    segment.forEach((tick, index) => (tick.seq = 5 + index));
    relink('BTCUSDT', segment.slice(1), (segment[0] as Tick).hash);
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.firstFailure).toBe(
      'entry-chain: entry segment: the segment ends at tick 9, the checkpoint at tick 8',
    );
  });

  it('a receipt re-signed with a key that is not in the set', async () => {
    const doc = sampleReceipt(signer);
    const intruder = createSigner();
    doc.receipt.pnlCents += 1_000;
    doc.signature = intruder.sign(doc.receipt);
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.firstFailure).toBe(
      `receipt-signature: signature kid ${intruder.kid} is not in the key set`,
    );
    expect(failedIds(result)).toEqual(['receipt-signature', 'pnl']);
  });

  it("a receipt re-signed with another key under the real key's kid", async () => {
    const doc = sampleReceipt(signer);
    const intruder = createSigner();
    doc.signature = { ...intruder.sign(doc.receipt), kid: signer.kid };
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.firstFailure).toBe(`receipt-signature: signature does not verify with key ${signer.kid}`);
  });

  it('receipt pnlCents edited', async () => {
    const doc = sampleReceipt(signer);
    const pnl = doc.receipt.pnlCents;
    doc.receipt.pnlCents = pnl + 50;
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['receipt-signature', 'pnl']);
    expect(detailOf(result, 'pnl')).toBe(`receipt pnlCents is ${pnl + 50}, the rules give ${pnl}`);
  });

  it('receipt pnlCents wrong as signed (a server bug is caught too)', async () => {
    const doc = sampleReceipt(signer, { mutate: (receipt) => void (receipt.pnlCents = 800) });
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['pnl']);
    expect(result.firstFailure).toMatch(/^pnl: receipt pnlCents is 800, the rules give -?\d+$/);
  });

  it('outcome edited', async () => {
    const doc = sampleReceipt(signer);
    const { outcome, rule } = doc.receipt;
    doc.receipt.outcome = outcome === 'won' ? 'lost' : 'won';
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['receipt-signature', 'outcome']);
    expect(detailOf(result, 'outcome')).toBe(
      `receipt outcome is ${doc.receipt.outcome}, the rules give ${outcome} (${rule})`,
    );
  });

  it('a checkpoint headHash edited', async () => {
    const doc = sampleReceipt(signer);
    const proof = doc.proof.exit;
    if (!proof) throw new Error('no exit proof');
    proof.checkpoint.checkpoint.headHash = 'ab'.repeat(32);
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['checkpoint-signatures', 'checkpoint-binding', 'exit-chain']);
    expect(result.firstFailure).toBe(
      `checkpoint-signatures: exit checkpoint: signature does not verify with key ${signer.kid}`,
    );
    expect(detailOf(result, 'checkpoint-binding')).toBe(
      `exit checkpoint headHash ${'ab'.repeat(32)} is not the receipt's ${doc.receipt.checkpoints.exit?.headHash}`,
    );
  });

  it('a checkpoint swapped for another validly signed one the receipt does not name', async () => {
    const doc = sampleReceipt(signer);
    const chain = sampleChain();
    doc.proof.exit = {
      checkpoint: signCheckpoint(signer, checkpointOf('BTCUSDT', chain, 17, 32)),
      segment: chain.slice(19, 32),
    };
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['checkpoint-binding']);
    expect(detailOf(result, 'checkpoint-binding')).toContain(
      'exit checkpoint toSeq is 32, the receipt names 24',
    );
  });

  it('a checkpoint of another pair', async () => {
    const doc = sampleReceipt(signer);
    const eth = sampleChain('ETHUSDT');
    doc.proof.entry = {
      checkpoint: signCheckpoint(signer, checkpointOf('ETHUSDT', eth, 1, 8)),
      segment: eth.slice(4, 8),
    };
    const result = await verifyReceipt(doc, keySet, port);
    expect(detailOf(result, 'checkpoint-signatures')).toBe(
      'entry checkpoint is for pair ETHUSDT, the receipt for BTCUSDT',
    );
  });

  it('an exit tick that is not the last before expiry, though signed', async () => {
    const chain = sampleChain();
    const doc = sampleReceipt(signer, {
      chain,
      mutate: (receipt) => {
        receipt.exitTick = { ...(chain[17] as Tick) }; // tick 18; tick 20 is the last before expiry
      },
    });
    // The proof as a server would build it for the receipt it signed: from tick 18.
    const proof = doc.proof.exit;
    if (!proof) throw new Error('no exit proof');
    proof.segment = chain.slice(17, 24).map((tick) => ({ ...tick }));
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('invalid');
    expect(detailOf(result, 'exit-tick-rule')).toBe(
      'afterExpiryTick is tick 21, not tick 19 after exitTick 18',
    );
    expect(detailOf(result, 'exit-chain')).toContain(
      "exit segment: the second tick differs from the receipt's tick 21",
    );
  });

  it('an exit tick after expiry, though signed', async () => {
    const chain = sampleChain();
    const doc = sampleReceipt(signer, {
      chain,
      mutate: (receipt) => {
        receipt.exitTick = { ...(chain[20] as Tick) };
        receipt.afterExpiryTick = { ...(chain[21] as Tick) };
      },
    });
    const result = await verifyReceipt(doc, keySet, port);
    expect(detailOf(result, 'exit-tick-rule')).toMatch(/^exitTick 21 at \d+ is after expiry \d+$/);
  });

  it('an entry price that is not the entry tick, though signed', async () => {
    const doc = sampleReceipt(signer, {
      mutate: (receipt) => {
        receipt.entryPrice = '1';
      },
    });
    const result = await verifyReceipt(doc, keySet, port);
    expect(detailOf(result, 'entry-tick-rule')).toMatch(
      /^entryTick 5 price [\d.]+ is not the entry price 1$/,
    );
  });

  it('a proof stripped of its segment', async () => {
    const doc = sampleReceipt(signer);
    doc.proof.entry = null;
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['checkpoint-binding']);
    expect(detailOf(result, 'checkpoint-binding')).toBe(
      'the receipt names an entry checkpoint (toSeq 8) but the proof holds none',
    );
    expect(statusOf(result)['entry-chain']).toBe('skipped');
  });
});

describe('verifyReceipt on unusable input', () => {
  it.each([
    ['not an object', 'x', 'the document is not an object'],
    ['no receipt', {}, 'receipt is missing'],
  ])('%s', async (_name, document, detail) => {
    const result = await verifyReceipt(document, keySet, port);
    expect(result.verdict).toBe('unusable');
    expect(result.firstFailure).toContain(`format: ${detail}`);
    expect(result.steps.slice(1).every((s) => s.status === 'skipped')).toBe(true);
  });

  it('names each field of the wrong type by its path', async () => {
    const doc = clone(sampleReceipt(signer)) as unknown as {
      receipt: Record<string, unknown>;
      proof: { exit: { segment: Record<string, unknown>[] } };
    };
    doc.receipt.stakeCents = 10.5;
    doc.receipt.direction = 'SIDEWAYS';
    doc.receipt.entryPrice = '9.50e4';
    delete doc.receipt.ledgerKey;
    (doc.proof.exit.segment[1] as Record<string, unknown>).hash = 'ABC';
    expect(receiptDocumentProblems(doc)).toEqual([
      'receipt.direction is not one of "UP", "DOWN"',
      'receipt.stakeCents is not a non-negative safe integer',
      'receipt.entryPrice is not a canonical price string (shortest round-trip decimal, no exponent)',
      'receipt.ledgerKey is missing',
      'proof.exit.segment[1].hash is not 64 lowercase hex characters',
    ]);
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('unusable');
  });

  it('refuses an extra member that has no canonical form, and a malformed key set', async () => {
    const doc = sampleReceipt(signer);
    (doc.receipt as unknown as Record<string, unknown>).extra = 0.5;
    expect((await verifyReceipt(doc, keySet, port)).firstFailure).toBe(
      'format: receipt.extra is not a safe integer',
    );
    const result = await verifyReceipt(sampleReceipt(signer), { keys: 'none' } as never, port);
    expect(result.firstFailure).toBe('format: key set: the key set has no "keys" array');
  });
});

describe('verifyCheckpoint', () => {
  it('verifies the documented checkpoint', async () => {
    expect(await verifyCheckpoint(CHECKPOINT_1_2, RFC8032_KEY_SET, port)).toEqual({
      valid: true,
      problems: [],
    });
    expect(await verifyCheckpoint(CHECKPOINT_1_2, RFC8032_KEY_SET, webCrypto())).toEqual({
      valid: true,
      problems: [],
    });
  });

  it('names a signed checkpoint whose numbers disagree', async () => {
    const chain = sampleChain();
    const body = { ...checkpointOf('BTCUSDT', chain, 1, 8), ticks: 7, startHash: 'c'.repeat(64) };
    const checked = await verifyCheckpoint(signCheckpoint(signer, body), keySet, port);
    expect(checked).toEqual({
      valid: false,
      problems: [
        'ticks is 7, toSeq - fromSeq + 1 is 8',
        'a checkpoint from tick 1 must start from the genesis hash (64 zeros)',
      ],
    });
  });

  it('names a malformed checkpoint', async () => {
    const checked = await verifyCheckpoint({ checkpoint: { type: 'x' } }, keySet, port);
    expect(checked.valid).toBe(false);
    expect(checked.problems[0]).toBe(
      'checkpoint document.checkpoint.type is not one of "updown.checkpoint.v1"',
    );
  });
});
