import { describe, expect, it } from 'vitest';
import {
  capacityStep,
  nextInFlight,
  runClosedLoopStep,
  type CapacityPlan,
  type CapacityStep,
} from './placement-capacity';

const plan: CapacityPlan = {
  startInFlight: 1,
  factor: 2,
  maxInFlight: 64,
  improvementMin: 1.05,
  flatStepsMax: 2,
};

const step = (inFlight: number, throughputPerSec: number, errorPct = 0): CapacityStep => ({
  inFlight,
  completed: Math.round(throughputPerSec * 4),
  errors: 0,
  errorPct,
  throughputPerSec,
  p50Ms: inFlight,
  p99Ms: inFlight * 3,
  maxMs: inFlight * 4,
});

describe('capacityStep', () => {
  it('is the highest throughput at any latency, leaving out steps with errors', () => {
    const steps = [step(1, 300), step(2, 520), step(4, 700), step(8, 690), step(16, 900, 0.5)];
    expect(capacityStep(steps)?.inFlight).toBe(4);
    expect(capacityStep([step(1, 300, 5)])).toBeUndefined();
    expect(capacityStep([])).toBeUndefined();
  });
});

describe('nextInFlight', () => {
  it('starts at the start and doubles while throughput grows', () => {
    expect(nextInFlight([], plan)).toBe(1);
    expect(nextInFlight([step(1, 300)], plan)).toBe(2);
    expect(nextInFlight([step(1, 300), step(2, 520), step(4, 700)], plan)).toBe(8);
  });

  it('stops after two steps in a row that do not beat the best by 5%', () => {
    const flat = [step(1, 300), step(2, 520), step(4, 700), step(8, 720)];
    expect(nextInFlight(flat, plan)).toBe(16); // one flat step: keep going
    expect(nextInFlight([...flat, step(16, 710)], plan)).toBeUndefined();
    // A step that improves again resets the count.
    expect(nextInFlight([...flat, step(16, 800)], plan)).toBe(32);
  });

  it('stops at the maximum, and counts a step with errors as no improvement', () => {
    expect(nextInFlight([step(64, 900)], plan)).toBeUndefined();
    expect(nextInFlight([step(1, 300), step(2, 600, 1), step(4, 610, 1)], plan)).toBeUndefined();
  });
});

describe('runClosedLoopStep', () => {
  it('keeps N requests in flight and counts only answers inside the window', async () => {
    let inFlight = 0;
    let inFlightMax = 0;
    const {
      step: result,
      nextIndex,
      answered,
    } = await runClosedLoopStep({
      inFlight: 3,
      warmupMs: 20,
      windowMs: 100,
      firstIndex: 10,
      send: async (index) => {
        inFlightMax = Math.max(inFlightMax, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return index % 10 === 0 ? 'http 409' : 'ok';
      },
    });
    expect(inFlightMax).toBe(3);
    expect(result.inFlight).toBe(3);
    expect(result.completed).toBeGreaterThan(0);
    // Every tenth index is refused; the share is about 10% whatever the timing.
    expect(result.errorPct).toBeGreaterThan(3);
    expect(result.errorPct).toBeLessThan(20);
    expect(result.throughputPerSec).toBeCloseTo((result.completed * 1000) / 100, 10);
    expect(result.p50Ms).toBeGreaterThanOrEqual(4);
    // The warm-up's answers are not in the window but were paid for.
    expect(answered).toBeGreaterThan(result.completed);
    expect(nextIndex).toBeGreaterThan(10 + answered);
  });
});
