import { describe, expect, it } from 'vitest';
import type { UTCTimestamp } from 'lightweight-charts';
import type { Bar } from '../../../lib/chart-view';
import { applyTick } from './live-bars';

const bar: Bar = {
  time: 1_767_614_400 as UTCTimestamp,
  open: 100,
  high: 105,
  low: 95,
  close: 101,
  volume: 7,
};

describe('applyTick', () => {
  it('moves close, high and low inside the current bucket', () => {
    expect(applyTick(bar, 110, 1_767_614_430_000, 60)).toEqual({ ...bar, high: 110, close: 110, volume: 8 });
    expect(applyTick(bar, 90, 1_767_614_459_999, 60)).toEqual({ ...bar, low: 90, close: 90, volume: 8 });
  });

  it('starts a new bar in a later bucket', () => {
    expect(applyTick(bar, 102, 1_767_614_460_000, 60)).toEqual({
      time: 1_767_614_460,
      open: 102,
      high: 102,
      low: 102,
      close: 102,
      volume: 1,
    });
  });

  it('ignores ticks older than the last bar and ticks before any bar', () => {
    expect(applyTick(bar, 102, 1_767_614_399_000, 60)).toBeNull();
    expect(applyTick(null, 102, 1_767_614_460_000, 60)).toBeNull();
  });
});
