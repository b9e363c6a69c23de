import { DomainError } from '@updown/runtime/errors';
import type { Outcome } from '../settlement.domain';

/**
 * Disputes of a settlement (the terms: "disputes must be reported within 24 hours"), as pure rules:
 * who may open one and when, what a replay's verdict is, and what a correction moves.
 */

/** A dispute must be opened within this long after the trade settled. */
export const DISPUTE_WINDOW_MS = 24 * 60 * 60 * 1000;
export const DISPUTE_REASON_LENGTH_MAX = 500;
export const RESOLUTION_NOTE_LENGTH_MAX = 500;

export type DisputeStatus = 'open' | 'confirmed' | 'corrected';
export type StepStatus = 'ok' | 'fail' | 'warn' | 'skipped';

export interface ReplayStep {
  readonly id: string;
  readonly title: string;
  readonly status: StepStatus;
  readonly detail: string;
}

/** What a replay found: kept with the dispute as its evidence. */
export interface DisputeReplay {
  readonly verdict: 'confirmed' | 'mismatch';
  readonly summary: string;
  readonly steps: readonly ReplayStep[];
  readonly recorded: { readonly outcome: Outcome; readonly pnlCents: number };
  readonly replayed: { readonly outcome: Outcome | null; readonly pnlCents: number | null };
  readonly replayedAtMs: number;
}

export class TradeNotSettled extends DomainError {
  constructor() {
    super('TRADE_NOT_SETTLED', 'Only a settled trade can be disputed');
  }
}

export class DisputeWindowClosed extends DomainError {
  constructor() {
    super('DISPUTE_WINDOW_CLOSED', 'Disputes must be reported within 24 hours of settlement');
  }
}

export class DisputeAlreadyOpen extends DomainError {
  constructor() {
    super('DISPUTE_ALREADY_OPEN', 'This trade already has an open dispute');
  }
}

export class DisputeAlreadyResolved extends DomainError {
  constructor() {
    super('DISPUTE_ALREADY_RESOLVED', 'This dispute has already been resolved');
  }
}

export class NothingToCorrect extends DomainError {
  constructor() {
    super('NOTHING_TO_CORRECT', 'The replay found no difference in the result to correct');
  }
}

export class OwnDispute extends DomainError {
  constructor() {
    super('OWN_DISPUTE', 'An admin cannot resolve a dispute of their own trade');
  }
}

export class DisputeNotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'Dispute not found');
  }
}

/** Refuses a dispute of a trade that is pending or settled more than 24 hours ago. */
export function checkDisputable(trade: { readonly settledAtMs: number | null }, nowMs: number): void {
  if (trade.settledAtMs === null) throw new TradeNotSettled();
  if (nowMs - trade.settledAtMs > DISPUTE_WINDOW_MS) throw new DisputeWindowClosed();
}

/** A replay confirms the settlement when no step failed. */
export function replayVerdict(steps: readonly ReplayStep[]): 'confirmed' | 'mismatch' {
  return steps.some((step) => step.status === 'fail') ? 'mismatch' : 'confirmed';
}

/**
 * What a correction moves to the trader (negative: reclaims from them): the replayed profit minus
 * the recorded one. Null when there is nothing to correct (the replay could not decide, or agrees).
 */
export function correctionCents(replay: DisputeReplay): number | null {
  if (replay.verdict !== 'mismatch' || replay.replayed.pnlCents === null) return null;
  const delta = replay.replayed.pnlCents - replay.recorded.pnlCents;
  return delta === 0 ? null : delta;
}
