import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { canonicalJson } from '@updown/verify';
import type { KeySet } from '../api/get-key-set';
import type { Schemas } from '../../../lib/api-schema';
import type { ReceiptDocument, ReceiptTick } from '../api/get-receipt';

type SignedCheckpoint = Schemas['SignedCheckpoint'];

/*
 * A receipt signed the way the server signs one (the receipt format: SHA-256 tick chain, Ed25519
 * over canonical JSON, JWKS with RFC 7638 kids), made with node:crypto so the console's tests
 * verify a real document with the real verifier and this runtime's Web Crypto.
 */

export const FIXTURE_PAIR = 'BTCUSDT';
export const FIXTURE_TRADE_ID = '7d0c9a52-3f4e-4b6a-9c1d-2e8f5a6b7c80';
export const FIXTURE_USER_ID = '00000000-0000-4000-8000-000000000001';
/** 2026-01-05 12:00:00.000 UTC, the first tick. */
export const FIXTURE_START_MS = Date.UTC(2026, 0, 5, 12, 0, 0);
const TICK_EVERY_MS = 400;
const GENESIS = '0'.repeat(64);

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A receipt's id as the server derives it from the trade id (docs/receipts.md, 7.3). */
function receiptIdOf(tradeId: string): string {
  const hex = sha256Hex(`updown.receipt.v1:${tradeId}`);
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function chain(prices: readonly number[], startMs: number): ReceiptTick[] {
  const ticks: ReceiptTick[] = [];
  prices.forEach((value, index) => {
    const seq = index + 1;
    const atMs = startMs + index * TICK_EVERY_MS + (index % 3);
    const price = String(value);
    const prevHash = ticks.at(-1)?.hash ?? GENESIS;
    const hash = sha256Hex(`updown.tick.v1|${FIXTURE_PAIR}|${seq}|${atMs}|${price}|${prevHash}`);
    ticks.push({ seq, atMs, price, prevHash, hash });
  });
  return ticks;
}

interface Signer {
  keySet: KeySet;
  sign(value: unknown): { alg: 'Ed25519'; kid: string; sig: string };
}

function signer(): Signer {
  const { publicKey, privateKey }: { publicKey: KeyObject; privateKey: KeyObject } =
    generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  const kid = createHash('sha256')
    .update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`, 'utf8')
    .digest('base64url');
  return {
    keySet: { keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid, use: 'sig', alg: 'EdDSA', status: 'active' }] },
    sign: (value) => ({
      alg: 'Ed25519',
      kid,
      sig: sign(null, Buffer.from(canonicalJson(value), 'utf8'), privateKey).toString('base64url'),
    }),
  };
}

function checkpoint(key: Signer, ticks: readonly ReceiptTick[], fromSeq: number, toSeq: number) {
  const from = ticks[fromSeq - 1]!;
  const to = ticks[toSeq - 1]!;
  const body: SignedCheckpoint['checkpoint'] = {
    type: 'updown.checkpoint.v1',
    pair: FIXTURE_PAIR,
    fromSeq,
    toSeq,
    ticks: toSeq - fromSeq + 1,
    fromMs: from.atMs,
    toMs: to.atMs,
    startHash: from.prevHash,
    headHash: to.hash,
    signedAtMs: to.atMs + 1000,
  };
  return { checkpoint: body, signature: key.sign(body) };
}

/**
 * An UP trade of $10 at 80% on ticks 400 ms apart that rise by 0.1: entered on tick 5, expiring
 * 60 s later between two ticks, so it won $8.00. Returns the document and the key set that signed it.
 * The first tick is at `startMs` (a fixed instant unless a test needs a recent settlement).
 */
export function signedReceipt(startMs = FIXTURE_START_MS): { document: ReceiptDocument; keySet: KeySet } {
  const key = signer();
  const prices = Array.from({ length: 170 }, (_, i) => Math.round((95000 + i * 0.1) * 10) / 10);
  const ticks = chain(prices, startMs);
  const entryTick = ticks[4]!;
  const acceptedAtMs = entryTick.atMs + 7;
  const expiryAtMs = acceptedAtMs + 60_000;
  const exitIndex = ticks.findLastIndex((tick) => tick.atMs <= expiryAtMs);
  const exitTick = ticks[exitIndex]!;
  const afterExpiryTick = ticks[exitIndex + 1]!;
  const entryCheckpoint = checkpoint(key, ticks, 1, 20);
  const exitCheckpoint = checkpoint(key, ticks, 21, exitIndex + 6);
  const receipt: ReceiptDocument['receipt'] = {
    type: 'updown.receipt.v1',
    receiptId: receiptIdOf(FIXTURE_TRADE_ID),
    tradeId: FIXTURE_TRADE_ID,
    userId: FIXTURE_USER_ID,
    pair: FIXTURE_PAIR,
    direction: 'UP',
    account: 'demo',
    stakeCents: 1000,
    payoutBasisPoints: 8000,
    acceptedAtMs,
    expiryAtMs,
    entryPrice: entryTick.price,
    entryTick,
    exitTick,
    afterExpiryTick,
    outcome: 'won',
    rule: 'exit_above_entry',
    pnlCents: 800,
    ledgerKey: `trade:${FIXTURE_TRADE_ID}:settle`,
    ledgerEntryIds: ['123'],
    settledAtMs: expiryAtMs + 150,
    checkpoints: {
      entry: { toSeq: entryCheckpoint.checkpoint.toSeq, headHash: entryCheckpoint.checkpoint.headHash },
      exit: { toSeq: exitCheckpoint.checkpoint.toSeq, headHash: exitCheckpoint.checkpoint.headHash },
    },
    issuedAtMs: expiryAtMs + 2000,
  };
  const document: ReceiptDocument = {
    receipt,
    signature: key.sign(receipt),
    proof: {
      entry: { checkpoint: entryCheckpoint, segment: ticks.slice(entryTick.seq - 1, 20) },
      exit: { checkpoint: exitCheckpoint, segment: ticks.slice(exitIndex, exitIndex + 6) },
    },
  };
  return { document, keySet: key.keySet };
}
