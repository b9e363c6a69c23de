import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock';

describe('ManualClock', () => {
  it('fires timers in due order as time advances', () => {
    const clock = new ManualClock(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 100);
    const cancel = clock.setTimeout(() => fired.push('never'), 150);
    cancel();
    clock.advance(150);
    expect(fired).toEqual(['a@1100']);
    clock.advance(100);
    expect(fired).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1250);
  });

  it('fires timers scheduled by timers within the same advance', () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 10);
    }, 10);
    clock.advance(100);
    expect(fired).toEqual([10, 20]);
  });

  it('refuses to go backwards', () => {
    const clock = new ManualClock(100);
    expect(() => clock.set(50)).toThrow(/backwards/);
  });
});
