import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, OffsetClock } from './clock';

describe('ManualClock', () => {
  it('fires timers in due order as time advances', () => {
    const clock = new ManualClock(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.nowMs()}`), 200);
    clock.setTimeout(() => fired.push(`a@${clock.nowMs()}`), 100);
    const cancel = clock.setTimeout(() => fired.push('never'), 150);
    cancel();
    clock.advance(150);
    expect(fired).toEqual(['a@1100']);
    clock.advance(100);
    expect(fired).toEqual(['a@1100', 'b@1200']);
    expect(clock.nowMs()).toBe(1250);
  });

  it('fires timers scheduled by timers within the same advance', () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.nowMs());
      clock.setTimeout(() => fired.push(clock.nowMs()), 10);
    }, 10);
    clock.advance(100);
    expect(fired).toEqual([10, 20]);
  });

  it('refuses to go backwards', () => {
    const clock = new ManualClock(100);
    expect(() => clock.set(50)).toThrow(/backwards/);
  });
});

describe('OffsetClock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads real time plus the offset', () => {
    const clock = new OffsetClock();
    expect(clock.nowMs()).toBe(1_000_000);
    vi.advanceTimersByTime(500);
    expect(clock.nowMs()).toBe(1_000_500);
    clock.advance(61_000);
    expect(clock.nowMs()).toBe(1_061_500);
    expect(clock.offset()).toBe(61_000);
    vi.advanceTimersByTime(500);
    expect(clock.nowMs()).toBe(1_062_000);
  });

  it('fires timers on real time when nobody advances it', () => {
    const clock = new OffsetClock();
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.nowMs()), 250);
    vi.advanceTimersByTime(249);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([1_000_250]);
  });

  it('fires the timers a jump makes due, in due order, at the new time', () => {
    const clock = new OffsetClock();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`expiry@${clock.nowMs()}`), 60_000);
    clock.setTimeout(() => fired.push(`tick@${clock.nowMs()}`), 250);
    clock.setTimeout(() => fired.push('later'), 90_000);
    clock.advance(61_000);
    expect(fired).toEqual(['tick@1061000', 'expiry@1061000']);
  });

  it('re-arms a timer that is not due yet for its shorter remaining wait', () => {
    const clock = new OffsetClock();
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.nowMs()), 90_000);
    clock.advance(61_000);
    vi.advanceTimersByTime(28_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([1_090_000]);
    // The real timer armed before the jump must not fire it a second time.
    vi.advanceTimersByTime(90_000);
    expect(fired).toHaveLength(1);
  });

  it('never fires a cancelled timer, by a jump or by real time', () => {
    const clock = new OffsetClock();
    const fired: string[] = [];
    const cancelA = clock.setTimeout(() => fired.push('a'), 1_000);
    const cancelB = clock.setTimeout(() => fired.push('b'), 5_000);
    cancelA();
    clock.advance(2_000);
    cancelB();
    vi.advanceTimersByTime(10_000);
    expect(fired).toEqual([]);
  });

  it('lets a callback cancel a timer due in the same jump', () => {
    const clock = new OffsetClock();
    const fired: string[] = [];
    let cancelSecond = () => {};
    clock.setTimeout(() => {
      fired.push('first');
      cancelSecond();
    }, 100);
    cancelSecond = clock.setTimeout(() => fired.push('second'), 200);
    clock.advance(1_000);
    expect(fired).toEqual(['first']);
  });

  it('sends a timer set during a jump through the real timer queue', () => {
    const clock = new OffsetClock();
    let runs = 0;
    const again = () => {
      runs++;
      clock.setTimeout(again, 0);
    };
    clock.setTimeout(again, 10);
    clock.advance(1_000);
    expect(runs).toBe(1);
    vi.advanceTimersByTime(0);
    expect(runs).toBe(2);
  });

  it('waits out delays longer than a real timer can hold', () => {
    const clock = new OffsetClock();
    const fired: number[] = [];
    const thirtyDaysMs = 30 * 24 * 3600 * 1000;
    clock.setTimeout(() => fired.push(clock.nowMs()), thirtyDaysMs);
    vi.advanceTimersByTime(2 ** 31);
    expect(fired).toEqual([]);
    clock.advance(thirtyDaysMs - 2 ** 31);
    expect(fired).toEqual([1_000_000 + thirtyDaysMs]);
  });

  it('refuses to go backwards', () => {
    expect(() => new OffsetClock().advance(-1)).toThrow(/ms >= 0/);
  });
});
