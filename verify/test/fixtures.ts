/**
 * Builds what the server publishes, the way the server builds it: an Ed25519 key and its key set,
 * a pair's hash chain of ticks, signed checkpoints over ranges of it, and signed receipts with
 * their proof, all from the verifier's own canonicalJson, tickContent, settlementRule and pnlCents.
 */
import { createHash, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../src/canonical.js';
import { GENESIS_HASH, priceText, tickContent, type Tick } from '../src/chain.js';
import type { KeySet, KeySetJwk, Signature } from '../src/keys.js';
import { pnlCents, settlementRule, type Direction } from '../src/rules.js';
import type { Checkpoint, Receipt, ReceiptDocument, SignedCheckpoint } from '../src/verify-receipt.js';

export interface TestSigner {
  readonly kid: string;
  readonly jwk: KeySetJwk;
  readonly privateKey: KeyObject;
  /** Signs canonicalJson(value). */
  sign(value: unknown): Signature;
}

/** The RFC 7638 thumbprint of an Ed25519 public key, computed independently of the verifier. */
export function thumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`, 'utf8').digest('base64url');
}

/** A fresh Ed25519 key pair and its key-set entry. */
export function createSigner(status: 'active' | 'retired' = 'active'): TestSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return signerFrom(privateKey, publicKey, status);
}

function signerFrom(privateKey: KeyObject, publicKey: KeyObject, status: 'active' | 'retired'): TestSigner {
  const x = publicKey.export({ format: 'jwk' }).x;
  if (typeof x !== 'string') throw new Error('no x in the exported JWK');
  const kid = thumbprint(x);
  const jwk: KeySetJwk = { kty: 'OKP', crv: 'Ed25519', x, kid, use: 'sig', alg: 'EdDSA', status };
  return {
    kid,
    jwk,
    privateKey,
    sign: (value) => ({
      alg: 'Ed25519',
      kid,
      sig: sign(null, Buffer.from(canonicalJson(value), 'utf8'), privateKey).toString('base64url'),
    }),
  };
}

/** The same key under another status (a rotation retires the key, it stays in the set). */
export function withStatus(signer: TestSigner, status: 'active' | 'retired'): TestSigner {
  return signerFrom(signer.privateKey, createPublicKey(signer.privateKey), status);
}

export function keySetOf(...signers: readonly TestSigner[]): KeySet {
  return { keys: signers.map((signer) => signer.jwk) };
}

/** A trade's receipt id as the server derives it (a UUID of version 8 from SHA-256), computed apart from the verifier. */
export function receiptIdOf(tradeId: string): string {
  const hex = createHash('sha256').update(`updown.receipt.v1:${tradeId}`, 'utf8').digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** sha256 hex with node:crypto, as the server hashes ticks. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Links `points` into a chain of `pair`, from tick 1 on. */
export function buildChain(pair: string, points: readonly { atMs: number; price: number }[]): Tick[] {
  const chain: Tick[] = [];
  let prevHash = GENESIS_HASH;
  points.forEach((point, index) => {
    const seq = index + 1;
    const price = priceText(point.price);
    const hash = sha256Hex(tickContent({ pair, seq, atMs: point.atMs, price, prevHash }));
    chain.push({ seq, atMs: point.atMs, price, prevHash, hash });
    prevHash = hash;
  });
  return chain;
}

/** Recomputes the hashes of `ticks` in place from their content and the given start hash. */
export function relink(pair: string, ticks: Tick[], startHash: string): void {
  let prevHash = startHash;
  for (const tick of ticks) {
    tick.prevHash = prevHash;
    tick.hash = sha256Hex(tickContent({ pair, ...tick }));
    prevHash = tick.hash;
  }
}

/** Tick `seq` of a chain built by {@link buildChain}. */
export function tickAt(chain: readonly Tick[], seq: number): Tick {
  const tick = chain[seq - 1];
  if (tick === undefined) throw new Error(`no tick ${seq}`);
  return tick;
}

export function checkpointOf(
  pair: string,
  chain: readonly Tick[],
  fromSeq: number,
  toSeq: number,
): Checkpoint {
  const first = tickAt(chain, fromSeq);
  const last = tickAt(chain, toSeq);
  return {
    type: 'updown.checkpoint.v1',
    pair,
    fromSeq,
    toSeq,
    ticks: toSeq - fromSeq + 1,
    fromMs: first.atMs,
    toMs: last.atMs,
    startHash: first.prevHash,
    headHash: last.hash,
    signedAtMs: last.atMs + 1_000,
  };
}

export function signCheckpoint(signer: TestSigner, checkpoint: Checkpoint): SignedCheckpoint {
  return { checkpoint, signature: signer.sign(checkpoint) };
}

/** The checkpoint ranges of a chain: every `every` ticks, the last range possibly shorter. */
export function checkpointRanges(chainLength: number, every: number): { fromSeq: number; toSeq: number }[] {
  const ranges = [];
  for (let fromSeq = 1; fromSeq <= chainLength; fromSeq += every) {
    ranges.push({ fromSeq, toSeq: Math.min(chainLength, fromSeq + every - 1) });
  }
  return ranges;
}

export interface TradeSpec {
  readonly pair?: string;
  readonly direction: Direction;
  readonly account?: 'demo' | 'real';
  readonly stakeCents: number;
  readonly payoutBasisPoints: number;
  readonly acceptedAtMs: number;
  readonly expiryAtMs: number;
  readonly tradeId?: string;
}

export interface ReceiptOptions {
  readonly signer: TestSigner;
  /** Signs the checkpoints; the receipt signer by default. */
  readonly checkpointSigner?: TestSigner;
  readonly chain: readonly Tick[];
  readonly trade: TradeSpec;
  /** Ticks per checkpoint (default 8). */
  readonly checkpointEvery?: number;
  /** Changes the receipt before it is signed, as a faulty server would. */
  readonly mutate?: (receipt: Receipt) => void;
}

const copyTick = (tick: Tick): Tick => ({ ...tick });

/**
 * A receipt document as the server issues it: the entry tick is the last tick at or before the
 * trade was accepted, the exit tick the last at or before expiry, the after-expiry tick the one
 * after it; each proof segment runs from the receipt's tick to the end of the checkpoint that
 * covers it (the after-expiry tick's, if there is one).
 */
export function buildReceipt(options: ReceiptOptions): ReceiptDocument {
  const { chain, trade, signer } = options;
  const pair = options.trade.pair ?? 'BTCUSDT';
  const every = options.checkpointEvery ?? 8;
  const checkpointSigner = options.checkpointSigner ?? signer;
  const ranges = checkpointRanges(chain.length, every);
  const rangeOf = (seq: number) => {
    const range = ranges.find((r) => r.fromSeq <= seq && seq <= r.toSeq);
    if (!range) throw new Error(`no checkpoint covers tick ${seq}`);
    return range;
  };
  const lastAtOrBefore = (atMs: number) => chain.filter((tick) => tick.atMs <= atMs).at(-1);

  const entryTick = lastAtOrBefore(trade.acceptedAtMs);
  if (!entryTick) throw new Error('no tick before the trade was accepted');
  const exitTick = lastAtOrBefore(trade.expiryAtMs);
  const afterExpiryTick = chain.find((tick) => tick.atMs > trade.expiryAtMs);
  const entryPrice = entryTick.price;
  const ruled = settlementRule(
    trade.direction,
    Number(entryPrice),
    trade.expiryAtMs,
    exitTick ? { price: Number(exitTick.price), atMs: exitTick.atMs } : undefined,
  );

  const proofFor = (anchor: Tick, covered: Tick) => {
    const range = rangeOf(covered.seq);
    const checkpoint = signCheckpoint(
      checkpointSigner,
      checkpointOf(pair, chain, range.fromSeq, range.toSeq),
    );
    return { checkpoint, segment: chain.slice(anchor.seq - 1, range.toSeq).map(copyTick) };
  };
  const entryProof = proofFor(entryTick, entryTick);
  const exitAnchor = exitTick ?? afterExpiryTick;
  const exitProof = exitAnchor ? proofFor(exitAnchor, afterExpiryTick ?? exitAnchor) : null;
  const tradeId = trade.tradeId ?? '2b5f3c1e-8a47-4d2c-9f10-6e3a7b9c0d21';

  const receipt: Receipt = {
    type: 'updown.receipt.v1',
    receiptId: receiptIdOf(tradeId),
    tradeId,
    userId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    pair,
    direction: trade.direction,
    account: trade.account ?? 'real',
    stakeCents: trade.stakeCents,
    payoutBasisPoints: trade.payoutBasisPoints,
    acceptedAtMs: trade.acceptedAtMs,
    expiryAtMs: trade.expiryAtMs,
    entryPrice,
    entryTick: copyTick(entryTick),
    exitTick: exitTick ? copyTick(exitTick) : null,
    afterExpiryTick: afterExpiryTick ? copyTick(afterExpiryTick) : null,
    outcome: ruled.outcome,
    rule: ruled.rule,
    pnlCents: pnlCents(trade.stakeCents, trade.payoutBasisPoints, ruled.outcome),
    ledgerKey: `trade:${tradeId}:settle`,
    ledgerEntryIds: ['123'],
    settledAtMs: trade.expiryAtMs + 1_500,
    checkpoints: {
      entry: {
        toSeq: entryProof.checkpoint.checkpoint.toSeq,
        headHash: entryProof.checkpoint.checkpoint.headHash,
      },
      exit: exitProof
        ? { toSeq: exitProof.checkpoint.checkpoint.toSeq, headHash: exitProof.checkpoint.checkpoint.headHash }
        : null,
    },
    issuedAtMs: trade.expiryAtMs + 60_000,
  };
  options.mutate?.(receipt);
  return { receipt, signature: signer.sign(receipt), proof: { entry: entryProof, exit: exitProof } };
}

/** A deep copy, to tamper with. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** 40 ticks of BTCUSDT one second apart from `startMs`, prices walking in steps of 0.01. */
export const T0 = 1_764_000_000_000;

export function sampleChain(pair = 'BTCUSDT', count = 40, startMs = T0): Tick[] {
  const steps = [0, 3, -2, 5, 1, -4, 0, 2, -1, 6];
  let cents = 9_500_000;
  return buildChain(
    pair,
    Array.from({ length: count }, (_, index) => {
      cents += steps[index % steps.length] ?? 0;
      return { atMs: startMs + index * 1_000 + (index % 3) * 7, price: cents / 100 };
    }),
  );
}

/** A valid receipt: an UP trade accepted at tick 5 and expiring between ticks 20 and 21. */
export function sampleReceipt(signer: TestSigner, overrides: Partial<ReceiptOptions> = {}): ReceiptDocument {
  const chain = overrides.chain ?? sampleChain();
  return buildReceipt({
    signer,
    chain,
    trade: {
      direction: 'UP',
      stakeCents: 1_000,
      payoutBasisPoints: 8_250,
      acceptedAtMs: T0 + 4_500,
      expiryAtMs: T0 + 19_500,
    },
    ...overrides,
  });
}
