import { describe, expect, it } from 'vitest';
import {
  EXPIRY_FLASH_MS,
  EXPIRY_REMOVE_MS,
  VANISH_GRACE_MS,
  entryBarTime,
  expiryPhase,
  nextClockTickMs,
  retainExpiring,
  timeToBarIndex,
} from './chart-trade-timeline';

const EXPIRY = 1_767_614_460;
const AT_EXPIRY_MS = EXPIRY * 1000;

describe('expiry phases', () => {
  it('flashes for 0.3 s from the expiry and is removed 2 s after it', () => {
    expect(EXPIRY_FLASH_MS).toBe(300);
    expect(EXPIRY_REMOVE_MS).toBe(2000);
    expect(expiryPhase(EXPIRY, AT_EXPIRY_MS - 1)).toBe('live');
    expect(expiryPhase(EXPIRY, AT_EXPIRY_MS)).toBe('flash');
    expect(expiryPhase(EXPIRY, AT_EXPIRY_MS + 299)).toBe('flash');
    expect(expiryPhase(EXPIRY, AT_EXPIRY_MS + 300)).toBe('expired');
    expect(expiryPhase(EXPIRY, AT_EXPIRY_MS + 1999)).toBe('expired');
    expect(expiryPhase(EXPIRY, AT_EXPIRY_MS + 2000)).toBeNull();
  });

  it('ticks on the next whole second, or sooner at a phase change', () => {
    expect(nextClockTickMs([], AT_EXPIRY_MS + 250)).toBe(750);
    expect(nextClockTickMs([EXPIRY], AT_EXPIRY_MS - 400)).toBe(400);
    expect(nextClockTickMs([EXPIRY], AT_EXPIRY_MS)).toBe(EXPIRY_FLASH_MS);
    expect(nextClockTickMs([EXPIRY], AT_EXPIRY_MS + 1900)).toBe(100);
    expect(nextClockTickMs([EXPIRY + 3600], AT_EXPIRY_MS)).toBe(1000);
  });
});

describe('retainExpiring', () => {
  const a = { id: 'a', expiry_ts: EXPIRY };
  const b = { id: 'b', expiry_ts: EXPIRY + 60 };

  it('keeps a trade that dropped off the list after its expiry until its line is removed', () => {
    expect(retainExpiring([a, b], [b], AT_EXPIRY_MS + 100)).toEqual([b, a]);
    expect(retainExpiring([a, b], [b], AT_EXPIRY_MS + 1500)).toEqual([b, a]);
    expect(retainExpiring([a, b], [b], AT_EXPIRY_MS + 2000)).toEqual([b]);
  });

  it('keeps a trade that dropped off just before its rounded-up expiry, until its removal', () => {
    expect(retainExpiring([a, b], [b], AT_EXPIRY_MS - 900)).toEqual([b, a]);
    expect(retainExpiring([a, b], [b], AT_EXPIRY_MS - VANISH_GRACE_MS)).toEqual([b, a]);
  });

  it('forgets a trade that dropped off well before its expiry', () => {
    expect(retainExpiring([a, b], [b], AT_EXPIRY_MS - VANISH_GRACE_MS - 1)).toEqual([b]);
    expect(retainExpiring([a, b], [], AT_EXPIRY_MS - 60_000)).toEqual([]);
  });
});

describe('chart positions', () => {
  it('puts an entry in the bar that contains it', () => {
    expect(entryBarTime('2026-01-05T12:00:59.900Z', 60)).toBe(Date.UTC(2026, 0, 5, 12, 0) / 1000);
    expect(entryBarTime('2026-01-05T12:07:00.000Z', 300)).toBe(Date.UTC(2026, 0, 5, 12, 5) / 1000);
  });

  it('maps times between and beyond bars to fractional indexes', () => {
    const bars = [0, 60, 120, 240];
    expect(timeToBarIndex([], 10, 60)).toBeNull();
    expect(timeToBarIndex(bars, 60, 60)).toBe(1);
    expect(timeToBarIndex(bars, 90, 60)).toBe(1.5);
    // A gap in the bars stretches the step between them.
    expect(timeToBarIndex(bars, 180, 60)).toBe(2.5);
    // A future expiry lies right of the last bar, one index per timeframe.
    expect(timeToBarIndex(bars, 330, 60)).toBe(4.5);
    expect(timeToBarIndex(bars, -30, 60)).toBe(-0.5);
  });
});
