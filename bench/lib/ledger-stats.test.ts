import { describe, expect, it } from 'vitest';
import {
  bestWithinLimit,
  shapeLabel,
  stepLine,
  summarizeStep,
  withinLimit,
  type StepSummary,
} from './ledger-stats';

function step(overrides: Partial<StepSummary>): StepSummary {
  return {
    batchSize: 100,
    concurrency: 1,
    transfersPerSec: 1000,
    transactions: 10,
    errors: 0,
    p50Ms: 2,
    p99Ms: 5,
    maxMs: 6,
    ...overrides,
  };
}

describe('summarizeStep', () => {
  it('turns committed transfers into a rate over the window and sorts the latencies', () => {
    const summary = summarizeStep(
      { batchSize: 100, concurrency: 2 },
      { transfers: 5000, errors: 0, windowMs: 2000, latenciesMs: Float64Array.from([9, 1, 5, 3]) },
    );
    expect(summary.transfersPerSec).toBe(2500);
    expect(summary.transactions).toBe(4);
    expect(summary.p50Ms).toBe(3);
    expect(summary.p99Ms).toBe(9);
    expect(summary.maxMs).toBe(9);
    expect(summary).toMatchObject({ batchSize: 100, concurrency: 2, errors: 0 });
  });
});

describe('bestWithinLimit', () => {
  it('picks the fastest step whose p99 is within the limit', () => {
    const steps = [
      step({ transfersPerSec: 5000, p99Ms: 4 }),
      step({ transfersPerSec: 9000, p99Ms: 9.5 }),
      step({ transfersPerSec: 20000, p99Ms: 12 }),
    ];
    expect(bestWithinLimit(steps, 10)?.transfersPerSec).toBe(9000);
  });

  it('ignores steps with errors or nothing committed, and may find none', () => {
    expect(withinLimit(step({ errors: 1 }), 10)).toBe(false);
    expect(withinLimit(step({ transactions: 0, p99Ms: Number.NaN }), 10)).toBe(false);
    expect(bestWithinLimit([step({ p99Ms: 11 })], 10)).toBeNull();
  });
});

describe('labels', () => {
  it('names a step by batch size × concurrency with its rate and p99', () => {
    expect(shapeLabel({ batchSize: 250, concurrency: 4 })).toBe('250×4');
    expect(stepLine(step({ transfersPerSec: 21345.4, p99Ms: 8.06 }))).toBe('100×1 21,345/s p99 8.1 ms');
    expect(stepLine(step({ errors: 2 }))).toContain('2 errors');
  });
});
