import { describe, expect, it } from 'vitest';
import type { Tick } from '../src/chain.js';
import type { CryptoPort } from '../src/crypto-port.js';
import { nodeCrypto } from '../src/node-crypto.js';
import {
  STEPS,
  receiptDocumentProblems,
  verifyCheckpoint,
  verifyReceipt,
  type Receipt,
  type ReceiptDocument,
  type VerificationResult,
} from '../src/verify-receipt.js';
import { webCrypto } from '../src/web-crypto.js';
import { pnlCents, settlementRule } from '../src/rules.js';
import {
  T0,
  buildChain,
  buildReceipt,
  checkpointOf,
  clone,
  createSigner,
  keySetOf,
  receiptIdOf,
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

  it('takes the tick after the exit from the proof when the receipt was issued before it was stored', async () => {
    const chain = sampleChain();
    const doc = sampleReceipt(signer, {
      chain,
      mutate: (receipt) => void (receipt.afterExpiryTick = null),
    });
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('valid');
    expect(detailOf(result, 'exit-tick-rule')).toBe(
      `tick 20 at ${(chain[19] as Tick).atMs} <= expiry ${doc.receipt.expiryAtMs} < tick 21 at ${(chain[20] as Tick).atMs} (from the proof)`,
    );
  });

  it('verifies a void receipt whose exit tick is too old', async () => {
    const gap = buildChain('BTCUSDT', [
      { atMs: T0, price: 100 },
      { atMs: T0 + 1_000, price: 101 },
      { atMs: T0 + 30_000, price: 102 },
    ]);
    const old = buildReceipt({
      signer,
      chain: gap,
      trade: {
        direction: 'UP',
        stakeCents: 500,
        payoutBasisPoints: 8_000,
        acceptedAtMs: T0 + 1_500,
        expiryAtMs: T0 + 12_000,
      },
    });
    expect([old.receipt.outcome, old.receipt.rule, old.receipt.pnlCents]).toEqual([
      'void',
      'exit_tick_too_old',
      0,
    ]);
    const result = await verifyReceipt(old, keySet, port);
    expect(result.verdict).toBe('valid');
    expect(result.steps.every((s) => s.status === 'ok')).toBe(true);
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
      'afterExpiryTick is tick 21, not tick 19 after exitTick 18; ' +
        `tick 19 at ${(chain[18] as Tick).atMs} is at or before expiry ${doc.receipt.expiryAtMs}: exitTick 18 is not the last tick at or before expiry; ` +
        `tick 20 at ${(chain[19] as Tick).atMs} is at or before expiry ${doc.receipt.expiryAtMs}: exitTick 18 is not the last tick at or before expiry`,
    );
    expect(detailOf(result, 'exit-chain')).toContain(
      "exit segment: the second tick differs from the receipt's tick 21",
    );
  });

  it('an earlier exit tick signed with no tick after expiry, though its own segment holds a later one before expiry', async () => {
    const chain = sampleChain();
    const doc = sampleReceipt(signer, {
      chain,
      mutate: (receipt) => {
        const earlier = chain[18] as Tick; // tick 19; tick 20 is the last before expiry
        receipt.exitTick = { ...earlier };
        receipt.afterExpiryTick = null;
        const ruled = settlementRule(receipt.direction, Number(receipt.entryPrice), receipt.expiryAtMs, {
          price: Number(earlier.price),
          atMs: earlier.atMs,
        });
        receipt.outcome = ruled.outcome;
        receipt.rule = ruled.rule;
        receipt.pnlCents = pnlCents(receipt.stakeCents, receipt.payoutBasisPoints, ruled.outcome);
      },
    });
    exitSegment(doc).unshift({ ...(chain[18] as Tick) });
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('invalid');
    expect(failedIds(result)).toEqual(['exit-tick-rule']);
    expect(result.firstFailure).toBe(
      `exit-tick-rule: tick 20 at ${(chain[19] as Tick).atMs} is at or before expiry ${doc.receipt.expiryAtMs}: exitTick 19 is not the last tick at or before expiry`,
    );
  });

  it('an exit tick signed with nothing to prove it the last: no tick after expiry given', async () => {
    const chain = sampleChain('BTCUSDT', 20);
    const doc = sampleReceipt(signer, { chain });
    expect(doc.receipt.afterExpiryTick).toBeNull();
    expect(exitSegment(doc)).toHaveLength(1);
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('invalid');
    expect(result.firstFailure).toBe(
      `exit-tick-rule: neither afterExpiryTick nor the proof holds tick 21, the tick after exitTick 20: that it is the last tick at or before expiry ${doc.receipt.expiryAtMs} is not proven`,
    );
  });

  it('no exit tick, signed, though the entry tick is before expiry', async () => {
    const doc = sampleReceipt(signer, {
      mutate: (receipt) => {
        receipt.exitTick = null;
        receipt.outcome = 'void';
        receipt.rule = 'no_exit_tick';
        receipt.pnlCents = 0;
      },
    });
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('invalid');
    expect(detailOf(result, 'exit-tick-rule')).toContain(
      `tick 5 at ${doc.receipt.entryTick?.atMs} is at or before expiry ${doc.receipt.expiryAtMs}, yet the receipt names no exit tick`,
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

  it('an entry tick more than 5 s before the acceptance, though signed', async () => {
    const chain = sampleChain();
    const doc = sampleReceipt(signer, {
      chain,
      mutate: (receipt) => {
        const stale = chain[0] as Tick; // tick 1, 4 500 ms before the tick-5 acceptance... made older:
        receipt.acceptedAtMs = stale.atMs + 5_001;
        receipt.entryTick = { ...stale };
        receipt.entryPrice = stale.price;
      },
    });
    doc.proof.entry = { ...(doc.proof.entry as NonNullable<ReceiptDocument['proof']['entry']>) };
    doc.proof.entry.segment = chain.slice(0, 8).map((tick) => ({ ...tick }));
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('invalid');
    expect(detailOf(result, 'entry-tick-rule')).toBe(
      `entryTick 1 at ${(chain[0] as Tick).atMs} is 5001 ms before the acceptance at ${doc.receipt.acceptedAtMs}: a trade enters only on a tick at most 5000 ms old`,
    );
  });

  it('an entry tick after the acceptance, though signed', async () => {
    const doc = sampleReceipt(signer, {
      mutate: (receipt) => {
        receipt.acceptedAtMs = (receipt.entryTick as Tick).atMs - 1;
      },
    });
    const result = await verifyReceipt(doc, keySet, port);
    expect(detailOf(result, 'entry-tick-rule')).toBe(
      `entryTick 5 at ${doc.receipt.entryTick?.atMs} is after the trade was accepted at ${doc.receipt.acceptedAtMs}`,
    );
  });

  it('allows an entry tick trailing a newer stored one by less than 5 s, and says so', async () => {
    const chain = sampleChain();
    const doc = sampleReceipt(signer, {
      chain,
      mutate: (receipt) => {
        const held = chain[3] as Tick; // tick 4; tick 5 is also before the acceptance
        receipt.entryTick = { ...held };
        receipt.entryPrice = held.price;
        const ruled = settlementRule(receipt.direction, Number(held.price), receipt.expiryAtMs, {
          price: Number(receipt.exitTick?.price),
          atMs: receipt.exitTick?.atMs ?? 0,
        });
        receipt.outcome = ruled.outcome;
        receipt.rule = ruled.rule;
        receipt.pnlCents = pnlCents(receipt.stakeCents, receipt.payoutBasisPoints, ruled.outcome);
      },
    });
    const entry = doc.proof.entry as NonNullable<ReceiptDocument['proof']['entry']>;
    entry.segment = chain.slice(3, 8).map((tick) => ({ ...tick }));
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('valid');
    expect(detailOf(result, 'entry-tick-rule')).toContain(
      `; the next tick, 5 at ${(chain[4] as Tick).atMs}, is at or before the acceptance too, which the rule allows`,
    );
  });

  it('no entry tick, though signed', async () => {
    const doc = sampleReceipt(signer, {
      mutate: (receipt) => {
        receipt.entryTick = null;
        receipt.checkpoints.entry = null;
      },
    });
    doc.proof.entry = null;
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['entry-tick-rule']);
    expect(result.firstFailure).toBe(
      `entry-tick-rule: the receipt names no entry tick: the entry price ${doc.receipt.entryPrice} is not proven to be a stored tick's`,
    );
  });

  it('ticks whose times do not rise, in a chain signed and checkpointed as it is', async () => {
    const points = sampleChain().map((tick) => ({ atMs: tick.atMs, price: Number(tick.price) }));
    (points[21] as { atMs: number }).atMs = (points[20] as { atMs: number }).atMs; // tick 22 at tick 21's time
    const chain = buildChain('BTCUSDT', points);
    const doc = sampleReceipt(signer, { chain });
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('invalid');
    expect(failedIds(result)).toEqual(['exit-chain']);
    const at = (chain[20] as Tick).atMs;
    expect(detailOf(result, 'exit-chain')).toBe(
      `exit segment: tick 22 at ${at} is not later than tick 21 at ${at}: tick times rise strictly along a chain`,
    );
  });

  it('a receipt tick that disagrees with the same tick in a proof segment, on forked chains each checkpointed', async () => {
    const chain = sampleChain();
    const fork = sampleChain();
    // The fork differs from tick 6 on: the entry proof shows it, the exit proof the real chain.
    (fork[5] as Tick).price = '1';
    relink('BTCUSDT', fork.slice(5), (fork[4] as Tick).hash);
    const doc = sampleReceipt(signer, { chain, checkpointEvery: 40 });
    const entry = doc.proof.entry as NonNullable<ReceiptDocument['proof']['entry']>;
    entry.checkpoint = signCheckpoint(signer, checkpointOf('BTCUSDT', fork, 1, 40));
    entry.segment = fork.slice(4, 40).map((tick) => ({ ...tick }));
    doc.receipt.checkpoints.entry = { toSeq: 40, headHash: (fork[39] as Tick).hash };
    doc.signature = signer.sign(doc.receipt);
    const result = await verifyReceipt(doc, keySet, port);
    expect(result.verdict).toBe('invalid');
    expect(failedIds(result)).toEqual(['consistency']);
    expect(detailOf(result, 'consistency')).toMatch(
      /^tick 20 in the entry segment differs from tick 20 in exitTick: prevHash [0-9a-f]{64} vs [0-9a-f]{64}, hash/,
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

describe('verifyReceipt checks ids and times', () => {
  it("a receipt id not derived from its trade, and a ledger key not its trade's, though signed", async () => {
    const doc = sampleReceipt(signer, {
      mutate: (receipt) => {
        receipt.receiptId = '00000000-0000-8000-8000-000000000000';
        receipt.ledgerKey = 'trade:another:settle';
      },
    });
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['consistency']);
    expect(detailOf(result, 'consistency')).toBe(
      `receiptId 00000000-0000-8000-8000-000000000000 is not ${receiptIdOf(doc.receipt.tradeId)}, the id derived from trade ${doc.receipt.tradeId}; ` +
        `ledgerKey trade:another:settle is not trade:${doc.receipt.tradeId}:settle`,
    );
  });

  it.each([
    ['settled before expiry', { settledAtMs: -1 }, 'settledAtMs {settled} is before expiryAtMs {expiry}'],
    ['issued before settlement', { issuedAtMs: -1 }, 'issuedAtMs {issued} is before settledAtMs {settled}'],
  ] as const)('times out of order, though signed: %s', async (_name, shift, message) => {
    const doc = sampleReceipt(signer, {
      mutate: (receipt) => {
        if ('settledAtMs' in shift) receipt.settledAtMs = receipt.expiryAtMs + shift.settledAtMs;
        if ('issuedAtMs' in shift) receipt.issuedAtMs = receipt.settledAtMs + shift.issuedAtMs;
      },
    });
    const { receipt } = doc;
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['consistency']);
    expect(detailOf(result, 'consistency')).toBe(
      message
        .replace('{settled}', String(receipt.settledAtMs))
        .replace('{expiry}', String(receipt.expiryAtMs))
        .replace('{issued}', String(receipt.issuedAtMs)),
    );
  });

  it('says what it checked when all agrees', async () => {
    const doc = sampleReceipt(signer);
    const { receipt } = doc;
    const result = await verifyReceipt(doc, keySet, port);
    expect(detailOf(result, 'consistency')).toBe(
      `receipt id and ledger key derived from trade ${receipt.tradeId}; accepted ${receipt.acceptedAtMs} <= expiry ${receipt.expiryAtMs} <= settled ${receipt.settledAtMs} <= issued ${receipt.issuedAtMs}; 9 ticks given, one per seq, rising in time`,
    );
  });

  it("a checkpoint signed before its last tick, or whose times are not its ticks'", async () => {
    const chain = sampleChain();
    const doc = sampleReceipt(signer, { chain });
    const proof = doc.proof.exit as NonNullable<ReceiptDocument['proof']['exit']>;
    const body = { ...proof.checkpoint.checkpoint, signedAtMs: proof.checkpoint.checkpoint.toMs - 1 };
    proof.checkpoint = signCheckpoint(signer, body);
    const early = await verifyReceipt(doc, keySet, port);
    expect(detailOf(early, 'checkpoint-signatures')).toBe(
      `exit checkpoint: signedAtMs ${body.signedAtMs} is before toMs ${body.toMs}: signed before its last tick`,
    );
    proof.checkpoint = signCheckpoint(signer, { ...body, signedAtMs: body.toMs, toMs: body.toMs + 1 });
    const moved = await verifyReceipt(doc, keySet, port);
    expect(detailOf(moved, 'exit-chain')).toBe(
      `exit segment: tick 24 at ${body.toMs} is not at the checkpoint's toMs ${body.toMs + 1}`,
    );
  });
});

describe('verifyReceipt with a reference feed', () => {
  const withReference = (reference: Receipt['reference'], decide = true) =>
    sampleReceipt(signer, {
      mutate: (receipt) => {
        receipt.reference = reference;
        if (!decide || !reference) return;
        const ruled = settlementRule(
          receipt.direction,
          Number(receipt.entryPrice),
          receipt.expiryAtMs,
          receipt.exitTick
            ? { price: Number(receipt.exitTick.price), atMs: receipt.exitTick.atMs }
            : undefined,
          {
            spreadBps: reference.spreadBps,
            atEntry: reference.entryPrice === null ? null : Number(reference.entryPrice),
            atExpiry: reference.expiryPrice === null ? null : Number(reference.expiryPrice),
          },
        );
        receipt.outcome = ruled.outcome;
        receipt.rule = ruled.rule;
        receipt.pnlCents = pnlCents(receipt.stakeCents, receipt.payoutBasisPoints, ruled.outcome);
      },
    });
  const base = sampleReceipt(signer).receipt;
  const reference = (entryPrice: string | null, expiryPrice: string | null) => ({
    provider: 'BINANCE',
    spreadBps: 50,
    entryPrice,
    entryAtMs: entryPrice === null ? null : base.acceptedAtMs - 300,
    expiryPrice,
    expiryAtMs: expiryPrice === null ? null : base.expiryAtMs - 700,
  });

  it('verifies agreeing feeds, a missing reference price, and both kinds of divergence', async () => {
    const exit = Number(base.exitTick?.price);
    const entry = Number(base.entryPrice);
    const cases = [
      [reference(String(entry), String(exit)), base.outcome, base.rule],
      [reference(null, String(exit)), base.outcome, base.rule],
      [reference(String(entry * 1.01), String(exit)), 'void', 'feeds_diverged_at_entry'],
      [reference(String(entry), String(exit * 0.99)), 'void', 'feeds_diverged_at_expiry'],
    ] as const;
    for (const [ref, outcome, rule] of cases) {
      const doc = withReference(ref);
      expect([doc.receipt.outcome, doc.receipt.rule]).toEqual([outcome, rule]);
      const result = await verifyReceipt(doc, keySet, port);
      expect(result.firstFailure, JSON.stringify(ref)).toBeUndefined();
    }
  });

  it('a divergence signed as a win, and reference prices outside their 10 s windows', async () => {
    const diverged = withReference(reference(String(Number(base.entryPrice) * 1.01), null), false);
    const result = await verifyReceipt(diverged, keySet, port);
    expect(detailOf(result, 'outcome')).toMatch(
      /^receipt outcome is (won|lost|draw), the rules give void \(feeds_diverged_at_entry\); receipt rule is exit_\w+, the rules give feeds_diverged_at_entry$/,
    );
    const stale = withReference({
      ...reference(base.entryPrice, null),
      entryAtMs: base.acceptedAtMs - 10_001,
      expiryAtMs: base.expiryAtMs,
    });
    expect(detailOf(await verifyReceipt(stale, keySet, port), 'consistency')).toBe(
      `reference.entryAtMs ${base.acceptedAtMs - 10_001} is 10001 ms before the acceptance at ${base.acceptedAtMs}: a reference price more than 10000 ms old is none; ` +
        'reference.expiryPrice and reference.expiryAtMs are not both null or both set',
    );
    const late = withReference({ ...reference(base.entryPrice, null), entryAtMs: base.acceptedAtMs + 1 });
    expect(detailOf(await verifyReceipt(late, keySet, port), 'consistency')).toBe(
      `reference.entryAtMs ${base.acceptedAtMs + 1} is after the acceptance at ${base.acceptedAtMs}`,
    );
  });
});

describe('verifyReceipt and the key set', () => {
  it('fails a receipt signed by a key the set lists as revoked or with an unknown status', async () => {
    const doc = sampleReceipt(signer);
    for (const status of ['revoked', 'suspended']) {
      const result = await verifyReceipt(doc, { keys: [{ ...signer.jwk, status }] }, port);
      expect(result.verdict).toBe('invalid');
      expect(detailOf(result, 'receipt-signature')).toMatch(
        new RegExp(`^key ${signer.kid} (is revoked|has the status)`),
      );
      expect(detailOf(result, 'checkpoint-signatures')).toContain(`key ${signer.kid}`);
    }
  });

  it('refuses a key set that lists a kid twice: the document is unusable', async () => {
    const result = await verifyReceipt(
      sampleReceipt(signer),
      { keys: [signer.jwk, { ...signer.jwk }] },
      port,
    );
    expect(result.verdict).toBe('unusable');
    expect(result.firstFailure).toBe(
      `format: key set: keys[1].kid ${signer.kid} is also the kid of keys[0]: a key set lists each kid once`,
    );
  });

  it('fails a receipt tick that no signed checkpoint covers', async () => {
    const doc = sampleReceipt(signer, { mutate: (receipt) => void (receipt.checkpoints.entry = null) });
    doc.proof.entry = null;
    const result = await verifyReceipt(doc, keySet, port);
    expect(failedIds(result)).toEqual(['entry-chain']);
    expect(detailOf(result, 'entry-chain')).toBe(
      'entry tick 5 is not covered by a signed checkpoint in this receipt: its place in the chain is not proven',
    );
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
