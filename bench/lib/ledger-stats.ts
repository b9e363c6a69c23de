/**
 * The arithmetic of the ledger benchmark, kept pure so it can be tested: latency percentiles, the
 * summary of one load step, and the choice of the best step under the latency limit.
 */

import { percentile } from './stats';

/** The shape of one step: how many transfers each transaction carries and how many are in flight. */
export interface StepShape {
  /** Transfers per transaction: 1 for `transfer`, more for `transferBatch`. */
  readonly batchSize: number;
  /** Transactions in flight at once, each on its own pooled connection. */
  readonly concurrency: number;
}

export interface StepMeasurement {
  /** Transfers of the transactions that committed inside the measured window. */
  readonly transfers: number;
  /** Transactions that failed inside the window (their transfers are not counted). */
  readonly errors: number;
  readonly windowMs: number;
  /** Latency of each committed transaction, in milliseconds, in any order. */
  readonly latenciesMs: Float64Array;
}

export interface StepSummary extends StepShape {
  readonly transfersPerSec: number;
  readonly transactions: number;
  readonly errors: number;
  /**
   * Per-transfer latency percentiles. A transfer's latency is its transaction's (begin to commit):
   * every transaction of a step carries the same number of transfers, so these are the
   * transactions' percentiles.
   */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export function summarizeStep(shape: StepShape, measurement: StepMeasurement): StepSummary {
  const sorted = Float64Array.from(measurement.latenciesMs).sort();
  return {
    ...shape,
    transfersPerSec: measurement.windowMs > 0 ? (measurement.transfers * 1000) / measurement.windowMs : 0,
    transactions: sorted.length,
    errors: measurement.errors,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

/** A step counts only when it committed something, failed nothing and kept p99 within the limit. */
export function withinLimit(step: StepSummary, p99MsMax: number): boolean {
  return step.transactions > 0 && step.errors === 0 && step.p99Ms <= p99MsMax;
}

/** The step with the most transfers/s among those within the limit, or null when none is. */
export function bestWithinLimit(steps: readonly StepSummary[], p99MsMax: number): StepSummary | null {
  let best: StepSummary | null = null;
  for (const step of steps) {
    if (!withinLimit(step, p99MsMax)) continue;
    if (best === null || step.transfersPerSec > best.transfersPerSec) best = step;
  }
  return best;
}

/** `100×4`: batch size × concurrency, the way steps are named in the report. */
export function shapeLabel(shape: StepShape): string {
  return `${shape.batchSize}×${shape.concurrency}`;
}

/** One compact line per step for the report's setup: `100×4 21,345/s p99 8.1 ms`. */
export function stepLine(step: StepSummary): string {
  const errors = step.errors > 0 ? ` ${step.errors} errors` : '';
  return `${shapeLabel(step)} ${Math.round(step.transfersPerSec).toLocaleString('en-US')}/s p99 ${step.p99Ms.toFixed(1)} ms${errors}`;
}
