import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../lib/types';
import { tailGoalMet, withCapacityRatio } from './placement';

const tail = (headlinePerSec: number) => ({ headlinePerSec, steps: [] });

describe('the placement goal on the tail', () => {
  it('is half of what pgbench holds at p99 <= 20 ms on a machine where pgbench holds under 5,000/s', () => {
    expect(tailGoalMet(1_900, 0.5, tail(3_800))).toBe(true);
    expect(tailGoalMet(1_800, 0.47, tail(3_800))).toBe(false);
  });

  it('also asks 5,000/s where pgbench itself holds 5,000/s', () => {
    expect(tailGoalMet(4_000, 0.67, tail(6_000))).toBe(false);
    expect(tailGoalMet(5_100, 0.85, tail(6_000))).toBe(true);
  });

  it('fails without a pgbench tail to compare with', () => {
    expect(tailGoalMet(1_000, null, 'pgbench not found')).toBe(false);
  });
});

function row(capacity: number | null, pass = true): BenchResult {
  return {
    name: 'placement-distributed',
    value: 100,
    unit: 'placements/s',
    goal: 'g',
    reference_name: null,
    reference_value: null,
    ratio: null,
    pass,
    setup: { capacity_per_s: capacity },
  };
}

describe('the distributed row against the single process', () => {
  it('states its capacity as a share of the single process and fails below 0.8', () => {
    const low = withCapacityRatio(row(700), row(1_000));
    expect(low.setup.capacity_ratio_to_single).toBe(0.7);
    expect(low.pass).toBe(false);
    const high = withCapacityRatio(row(850), row(1_000));
    expect(high.setup.capacity_ratio_to_single).toBe(0.85);
    expect(high.pass).toBe(true);
  });

  it('never turns a failed row into a pass, and leaves an unmeasured one as it was', () => {
    expect(withCapacityRatio(row(900, false), row(1_000)).pass).toBe(false);
    const unmeasured = row(null, false);
    expect(withCapacityRatio(unmeasured, row(1_000))).toBe(unmeasured);
  });
});
