// @ts-check
/**
 * @updown/verify: checks Updown settlement receipts, signed checkpoints and tick hash chains
 * (docs/receipts.md). Everything exported here is browser-safe; the node:crypto port is
 * `@updown/verify/node`.
 */
export { canonicalJson } from './canonical.js';
export {
  GENESIS_HASH,
  PRICE_LIMIT,
  PRICE_MIN,
  TICK_HASH_PREFIX,
  isPriceText,
  priceText,
  tickContent,
  tickDifferences,
  tickHash,
  tickTimeProblem,
  verifySegment,
} from './chain.js';
export { RECEIPT_ID_PREFIX, ledgerKeyFor, receiptIdFor } from './consistency.js';
export { base64urlToBytes, bytesToBase64url, bytesToHex, hexToBytes } from './base64url.js';
export {
  ACCEPTED_KEY_STATUSES,
  findKey,
  jwkThumbprint,
  keySetProblems,
  keySetThumbprint,
  keyStatusProblem,
  verifySignature,
} from './keys.js';
export {
  BASIS_POINTS_PER_UNIT,
  ENTRY_PRICE_AGE_MS_MAX,
  EXIT_TICK_AGE_MS_MAX,
  OUTCOMES,
  RULES,
  entryPriceFresh,
  entryTickProblems,
  exitTickProblems,
  pnlCents,
  settlementRule,
  usableExit,
} from './rules.js';
export {
  STEPS,
  checkpointConsistencyProblems,
  receiptDocumentProblems,
  verifyCheckpoint,
  verifyReceipt,
} from './verify-receipt.js';
export { webCrypto } from './web-crypto.js';

/** @typedef {import('./crypto-port.js').CryptoPort} CryptoPort */
/** @typedef {import('./crypto-port.js').PublicJwk} PublicJwk */
/** @typedef {import('./chain.js').Tick} Tick */
/** @typedef {import('./chain.js').SegmentExpectation} SegmentExpectation */
/** @typedef {import('./keys.js').KeySet} KeySet */
/** @typedef {import('./keys.js').KeySetJwk} KeySetJwk */
/** @typedef {import('./keys.js').Signature} Signature */
/** @typedef {import('./keys.js').SignatureCheck} SignatureCheck */
/** @typedef {import('./rules.js').Direction} Direction */
/** @typedef {import('./rules.js').Outcome} Outcome */
/** @typedef {import('./rules.js').Rule} Rule */
/** @typedef {import('./rules.js').ExitPrice} ExitPrice */
/** @typedef {import('./rules.js').TickPoint} TickPoint */
/** @typedef {import('./verify-receipt.js').Checkpoint} Checkpoint */
/** @typedef {import('./verify-receipt.js').SignedCheckpoint} SignedCheckpoint */
/** @typedef {import('./verify-receipt.js').CheckpointRef} CheckpointRef */
/** @typedef {import('./verify-receipt.js').Receipt} Receipt */
/** @typedef {import('./verify-receipt.js').ReceiptDocument} ReceiptDocument */
/** @typedef {import('./verify-receipt.js').SegmentProof} SegmentProof */
/** @typedef {import('./verify-receipt.js').VerificationStep} VerificationStep */
/** @typedef {import('./verify-receipt.js').VerificationResult} VerificationResult */
/** @typedef {import('./verify-receipt.js').CheckpointCheck} CheckpointCheck */
/** @typedef {import('./verify-receipt.js').StepId} StepId */
/** @typedef {import('./verify-receipt.js').StepStatus} StepStatus */
