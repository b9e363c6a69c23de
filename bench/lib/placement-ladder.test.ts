import { describe, expect, it } from 'vitest';
import {
  bestPassingRate,
  nextStepRate,
  PLACEMENT_LIMITS,
  stepPasses,
  type LadderPlan,
} from './placement-ladder';

const plan: LadderPlan = { startRatePerSec: 100, factor: 2, maxRatePerSec: 1_600, refine: true };

describe('stepPasses', () => {
  it('needs p99 at most 20 ms and fewer than 0.1% errors', () => {
    expect(stepPasses({ p99Ms: 20, errorPct: 0.099 }, PLACEMENT_LIMITS)).toBe(true);
    expect(stepPasses({ p99Ms: 20.01, errorPct: 0 }, PLACEMENT_LIMITS)).toBe(false);
    expect(stepPasses({ p99Ms: 5, errorPct: 0.1 }, PLACEMENT_LIMITS)).toBe(false);
    expect(stepPasses({ p99Ms: Number.NaN, errorPct: 0 }, PLACEMENT_LIMITS)).toBe(false);
  });
});

describe('nextStepRate', () => {
  it('starts at the start rate and multiplies while steps pass, up to the maximum', () => {
    expect(nextStepRate([], plan)).toBe(100);
    expect(nextStepRate([{ ratePerSec: 100, pass: true }], plan)).toBe(200);
    const allPassed = [100, 200, 400, 800, 1_600].map((ratePerSec) => ({ ratePerSec, pass: true }));
    expect(nextStepRate(allPassed, plan)).toBeUndefined();
  });

  it('after the first failure tries once between the best pass and it, then stops', () => {
    const tried = [
      { ratePerSec: 100, pass: true },
      { ratePerSec: 200, pass: true },
      { ratePerSec: 400, pass: false },
    ];
    expect(nextStepRate(tried, plan)).toBe(283);
    expect(nextStepRate([...tried, { ratePerSec: 283, pass: true }], plan)).toBeUndefined();
    expect(nextStepRate([...tried, { ratePerSec: 283, pass: false }], plan)).toBeUndefined();
    expect(nextStepRate(tried, { ...plan, refine: false })).toBeUndefined();
  });

  it('stops when the very first step fails', () => {
    expect(nextStepRate([{ ratePerSec: 100, pass: false }], plan)).toBeUndefined();
  });

  it('does not refine a gap too small to tell anything', () => {
    const tried = [
      { ratePerSec: 100, pass: true },
      { ratePerSec: 120, pass: false },
    ];
    expect(nextStepRate(tried, { ...plan, factor: 1.2 })).toBeUndefined();
  });
});

describe('bestPassingRate', () => {
  it('is the highest passing rate, whatever the order', () => {
    expect(
      bestPassingRate([
        { ratePerSec: 100, pass: true },
        { ratePerSec: 400, pass: false },
        { ratePerSec: 283, pass: true },
      ]),
    ).toBe(283);
    expect(bestPassingRate([{ ratePerSec: 100, pass: false }])).toBeUndefined();
  });
});
