import { describe, expect, it } from 'vitest';
import type { ReceiptDocument, ReceiptTick } from '../api/get-receipt';
import { CHART_TICKS_PER_SIDE_MAX, chartPriceDecimals, receiptChartData } from './receipt-chart-data';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

function tick(seq: number, atMs: number, price = String(95000 + seq / 10)): ReceiptTick {
  return { seq, atMs, price, prevHash: '0'.repeat(64), hash: String(seq).padStart(64, '0') };
}

/** Ticks every `stepMs` from `fromSeq`, starting at `atMs`. */
function run(fromSeq: number, count: number, atMs: number, stepMs: number): ReceiptTick[] {
  return Array.from({ length: count }, (_, i) => tick(fromSeq + i, atMs + i * stepMs));
}

function document(entry: ReceiptTick[], exit: ReceiptTick[], expiryAtMs: number): ReceiptDocument {
  return {
    receipt: {
      acceptedAtMs: entry[0]!.atMs,
      expiryAtMs,
      entryTick: entry[0]!,
      exitTick:
        exit.find((t, i) => t.atMs <= expiryAtMs && (exit[i + 1]?.atMs ?? Infinity) > expiryAtMs) ?? null,
      afterExpiryTick: exit.find((t) => t.atMs > expiryAtMs) ?? null,
    },
    proof: {
      entry: { segment: entry },
      exit: { segment: exit },
    },
  } as unknown as ReceiptDocument;
}

describe('receiptChartData', () => {
  it('gives every tick its own slot, even several in one second, labelled to the millisecond', () => {
    // Four ticks 100 ms apart at entry; the expiry falls between two ticks 250 ms apart.
    const entry = run(1, 4, T0, 100);
    const exit = run(500, 3, T0 + 60_000, 250);
    const data = receiptChartData(document(entry, exit, T0 + 60_300));
    const values = data.runs.flat();
    expect(values).toHaveLength(7);
    expect(data.labels.get(1)).toBe('12:00:00.000');
    expect(data.labels.get(2)).toBe('12:00:00.100');
    // Times strictly rise, as the chart requires.
    const times = [...values.map((p) => p.time), ...data.gapTimes, data.expiryTime!].sort((a, b) => a - b);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
  });

  it('draws the entry and expiry runs apart and puts the expiry between exit and after-expiry', () => {
    const entry = run(1, 3, T0, 200);
    const exit = run(500, 3, T0 + 60_000, 250);
    const data = receiptChartData(document(entry, exit, T0 + 60_300));
    // 3 entry ticks, a gap, the exit tick (seq 501 at +250), expiry, after-expiry (seq 502 at +500).
    expect(data.runs.map((run) => run.map((p) => p.time))).toEqual([
      [1, 2, 3],
      [5, 6, 8],
    ]);
    expect(data.gapTimes).toEqual([4]);
    expect(data.labels.get(4)).toBe('…');
    expect(data.entryTime).toBe(1);
    expect(data.labels.get(data.exitTime!)).toBe('12:01:00.250');
    expect(data.expiryTime).toBe(data.exitTime! + 1);
    expect(data.labels.get(data.expiryTime!)).toBe('expiry 12:01:00.300');
    expect(data.labels.get(data.expiryTime! + 1)).toBe('12:01:00.500');
    // The expiry slot has no point of the line: the line runs on from exit to after-expiry.
    expect(data.runs.flat().some((p) => p.time === data.expiryTime)).toBe(false);
  });

  it('keeps only the nearest ticks within the window on each side', () => {
    const entry = run(1, 200, T0, 50);
    const exit = run(1000, 200, T0 + 60_000, 50);
    const data = receiptChartData(document(entry, exit, T0 + 60_020));
    expect(data.runs.flat().length).toBeLessThanOrEqual(2 * CHART_TICKS_PER_SIDE_MAX);
    expect(data.entryTime).toBe(1);
    expect(data.exitTime).not.toBeNull();
  });

  it('places the expiry at the end when no tick after it was stored', () => {
    const entry = run(1, 2, T0, 200);
    const exit = run(500, 1, T0 + 60_000, 250);
    const data = receiptChartData(document(entry, exit, T0 + 60_100));
    expect(data.expiryTime).toBe(Math.max(...data.runs.flat().map((p) => p.time)) + 1);
  });

  it('shows prices with as many decimals as the longest one', () => {
    const entry = [tick(1, T0, '1.16'), tick(2, T0 + 10, '1.1600123')];
    expect(chartPriceDecimals(document(entry, [tick(9, T0 + 60_000, '1.17')], T0 + 60_001))).toBe(7);
  });
});
