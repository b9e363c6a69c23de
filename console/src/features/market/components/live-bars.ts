import type { UTCTimestamp } from 'lightweight-charts';
import type { Bar } from '../../../lib/chart-view';

/**
 * Folds one live tick into the current bar: the same bucket moves high, low and close; a later
 * bucket starts a new bar at the tick's price. A tick older than the last bar changes nothing
 * (the chart refuses updates before its last bar), so the answer is null.
 */
export function applyTick(last: Bar | null, price: number, tsMs: number, timeframeSec: number): Bar | null {
  const bucket = (Math.floor(tsMs / 1000 / timeframeSec) * timeframeSec) as UTCTimestamp;
  if (!last) return null;
  if (bucket < last.time) return null;
  if (bucket === last.time) {
    return {
      ...last,
      high: Math.max(last.high, price),
      low: Math.min(last.low, price),
      close: price,
      volume: last.volume + 1,
    };
  }
  return { time: bucket, open: price, high: price, low: price, close: price, volume: 1 };
}
