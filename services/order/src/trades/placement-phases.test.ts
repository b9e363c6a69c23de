import { Registry } from '@updown/runtime';
import { describe, expect, it } from 'vitest';
import { PlacementPhases, SLOW_PLACEMENT_MS } from './placement-phases';

function line(text: string, series: string): number {
  const found = text.split('\n').find((l) => l.startsWith(`${series} `));
  if (found === undefined) throw new Error(`no ${series} in\n${text}`);
  return Number(found.slice(series.length + 1));
}

describe('PlacementPhases', () => {
  it('exposes every placement in the phase histogram and only the slow ones in the slow counters', async () => {
    const registry = new Registry();
    const phases = new PlacementPhases();
    phases.register(registry);
    // Fast: 1 + 2 + 1 + 0.5 ms. Slow: 15 ms queued (10 behind a commit) + 4 + 3 + 1 = 23 ms.
    phases.listener(1, 2, 1, 0.5, 0);
    phases.listener(15, 4, 3, 1, 10);
    expect(15 + 4 + 3 + 1).toBeGreaterThan(SLOW_PLACEMENT_MS);
    const text = await registry.metrics();
    expect(line(text, 'updown_placement_phase_seconds_count{phase="queued"}')).toBe(2);
    expect(line(text, 'updown_placement_phase_seconds_sum{phase="queued"}')).toBeCloseTo(0.016, 9);
    expect(line(text, 'updown_placement_phase_seconds_bucket{phase="queued",le="0.001"}')).toBe(1);
    expect(line(text, 'updown_placement_phase_seconds_bucket{phase="queued",le="0.02"}')).toBe(2);
    expect(line(text, 'updown_placement_phase_seconds_bucket{phase="answer",le="+Inf"}')).toBe(2);
    expect(line(text, 'updown_placement_slow_total')).toBe(1);
    expect(line(text, 'updown_placement_slow_phase_seconds_total{phase="queued"}')).toBeCloseTo(0.015, 9);
    expect(line(text, 'updown_placement_slow_phase_seconds_total{phase="commit"}')).toBeCloseTo(0.003, 9);
    expect(line(text, 'updown_placement_slow_phase_seconds_total{phase="queued_behind_commit"}')).toBeCloseTo(
      0.01,
      9,
    );
    expect(text).toContain('# TYPE updown_placement_phase_seconds histogram');
  });
});
