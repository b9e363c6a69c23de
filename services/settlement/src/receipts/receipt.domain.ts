import { settlementRule } from '@updown/verify/rules';
import type { Outcome, ReferenceCheckRecord } from '../settlement.domain';

/**
 * A settled trade's receipt (docs/receipts.md), as pure functions: which document a trade gets,
 * and when it may be issued. The document is signed as canonical JSON, so every number in it is an
 * integer (cents, milliseconds, basis points, sequence numbers) and every price a decimal string.
 */

/** A tick of a pair's chain as a receipt names it. */
export interface ReceiptTick {
  readonly seq: number;
  readonly atMs: number;
  readonly price: string;
  readonly prevHash: string;
  readonly hash: string;
}

export interface CheckpointRef {
  readonly toSeq: number;
  readonly headHash: string;
}

export interface Receipt {
  readonly type: 'updown.receipt.v1';
  readonly receiptId: string;
  readonly tradeId: string;
  readonly userId: string;
  readonly pair: string;
  readonly direction: 'UP' | 'DOWN';
  readonly account: 'demo' | 'real';
  readonly stakeCents: number;
  readonly payoutBasisPoints: number;
  readonly acceptedAtMs: number;
  readonly expiryAtMs: number;
  readonly entryPrice: string;
  readonly entryTick: ReceiptTick | null;
  readonly exitTick: ReceiptTick | null;
  readonly afterExpiryTick: ReceiptTick | null;
  readonly outcome: Outcome;
  readonly rule: string;
  readonly pnlCents: number;
  readonly ledgerKey: string;
  readonly ledgerEntryIds: readonly string[];
  readonly settledAtMs: number;
  readonly checkpoints: { readonly entry: CheckpointRef | null; readonly exit: CheckpointRef | null };
  readonly issuedAtMs: number;
  /** Present when the pair had a reference feed at settlement: what it said at acceptance and expiry. */
  readonly reference?: ReceiptReference;
}

export interface ReceiptReference {
  readonly provider: string;
  readonly spreadBps: number;
  readonly entryPrice: string | null;
  readonly entryAtMs: number | null;
  readonly expiryPrice: string | null;
  readonly expiryAtMs: number | null;
}

/** A settled trade as its receipt needs it. */
export interface ReceiptTrade {
  readonly tradeId: string;
  readonly userId: string;
  readonly pair: string;
  readonly direction: 'UP' | 'DOWN';
  readonly accountType: 'demo' | 'real';
  readonly amountCents: number;
  readonly payoutPct: number;
  readonly acceptedAtMs: number;
  readonly expiryAtMs: number;
  readonly entryPrice: string;
  readonly status: Outcome;
  readonly pnlCents: number;
  readonly settledAtMs: number;
  readonly referenceCheck: ReferenceCheckRecord | null;
}

/** The chain's evidence for one trade: ticks with hashes, and the checkpoints that cover them. */
export interface ReceiptEvidence {
  readonly entry: ReceiptTick | null;
  readonly exit: ReceiptTick | null;
  readonly after: ReceiptTick | null;
  readonly entryCheckpoint: CheckpointRef | null;
  readonly exitCheckpoint: CheckpointRef | null;
}

/** Payout percent as the integer basis points receipts carry (82.5 % → 8250), as settlement rounds it. */
export function payoutBasisPoints(payoutPct: number): number {
  return Math.round(payoutPct * 100);
}

/**
 * Whether the chain can prove this trade's receipt yet: signed checkpoints cover its entry tick and
 * the first tick after its expiry, which must be stored. That tick is the exit rule's proof
 * (`exitTickProblems` of `@updown/verify/rules`): without it no verifier can tell that the exit
 * tick is the last at or before the expiry, so a trade whose feed stopped at its expiry waits for
 * the feed, however long, rather than get a receipt that cannot be proven.
 */
export function receiptReady(evidence: ReceiptEvidence): boolean {
  return (
    evidence.entry !== null &&
    evidence.entryCheckpoint !== null &&
    evidence.after !== null &&
    evidence.exitCheckpoint !== null
  );
}

/** Whether a receipt still waiting has waited past `waitMsMax` since its trade settled: worth a warning. */
export function receiptOverdue(settledAtMs: number, nowMs: number, waitMsMax: number): boolean {
  return nowMs - settledAtMs >= waitMsMax;
}

/**
 * The receipt of a settled trade. The outcome, P/L and rule are the trade's as recorded; the rule
 * name is the pure rule's for the recorded ticks, so a receipt whose recorded result disagrees
 * with its ticks shows it (the verifier recomputes both and names the difference).
 */
export function buildReceipt(input: {
  readonly receiptId: string;
  readonly trade: ReceiptTrade;
  readonly evidence: ReceiptEvidence;
  readonly ledgerKey: string;
  readonly ledgerEntryIds: readonly number[];
  readonly issuedAtMs: number;
}): Receipt {
  const { trade, evidence } = input;
  const exit = evidence.exit ? { price: Number(evidence.exit.price), atMs: evidence.exit.atMs } : undefined;
  const check = trade.referenceCheck;
  const expiryReference = check?.expiry?.reference_price ?? null;
  const reference: ReceiptReference | undefined = check
    ? {
        provider: check.provider,
        spreadBps: check.spread_bps,
        entryPrice: check.entry.reference_price === null ? null : String(check.entry.reference_price),
        entryAtMs: check.entry.reference_at_ms,
        expiryPrice: expiryReference === null ? null : String(expiryReference),
        expiryAtMs: check.expiry?.reference_at_ms ?? null,
      }
    : undefined;
  const recomputed = settlementRule(
    trade.direction,
    Number(trade.entryPrice),
    trade.expiryAtMs,
    exit,
    reference && {
      spreadBps: reference.spreadBps,
      atEntry: reference.entryPrice === null ? null : Number(reference.entryPrice),
      atExpiry: reference.expiryPrice === null ? null : Number(reference.expiryPrice),
    },
  );
  return {
    type: 'updown.receipt.v1',
    receiptId: input.receiptId,
    tradeId: trade.tradeId,
    userId: trade.userId,
    pair: trade.pair,
    direction: trade.direction,
    account: trade.accountType,
    stakeCents: trade.amountCents,
    payoutBasisPoints: payoutBasisPoints(trade.payoutPct),
    acceptedAtMs: trade.acceptedAtMs,
    expiryAtMs: trade.expiryAtMs,
    entryPrice: trade.entryPrice,
    entryTick: evidence.entry,
    exitTick: evidence.exit,
    afterExpiryTick: evidence.after,
    outcome: trade.status,
    rule: recomputed.outcome === trade.status ? recomputed.rule : `recorded_${trade.status}`,
    pnlCents: trade.pnlCents,
    ledgerKey: input.ledgerKey,
    ledgerEntryIds: input.ledgerEntryIds.map(String),
    settledAtMs: trade.settledAtMs,
    checkpoints: {
      entry: evidence.entry ? evidence.entryCheckpoint : null,
      exit: evidence.exit || evidence.after ? evidence.exitCheckpoint : null,
    },
    issuedAtMs: input.issuedAtMs,
    ...(reference ? { reference } : {}),
  };
}
