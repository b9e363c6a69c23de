// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { HistogramSeries, LineSeries } from 'lightweight-charts';
import { signedReceipt } from '../testing/signed-receipt';
import { receiptChartData } from './receipt-chart-data';
import { ReceiptTickChart } from './receipt-tick-chart';

const fake = vi.hoisted(() => {
  const series = () => ({ setData: vi.fn(), applyOptions: vi.fn() });
  const chart = {
    addSeries: vi.fn(() => series()),
    priceScale: vi.fn(() => ({ applyOptions: vi.fn() })),
    timeScale: vi.fn(() => ({ fitContent: vi.fn() })),
    remove: vi.fn(),
  };
  return { chart, createChart: vi.fn(() => chart), createSeriesMarkers: vi.fn() };
});
vi.mock(import('lightweight-charts'), async (importOriginal) => ({
  ...(await importOriginal()),
  createChart: fake.createChart as never,
  createSeriesMarkers: fake.createSeriesMarkers as never,
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('ReceiptTickChart', () => {
  it('draws one point per tick on slots labelled with real times, marks entry, exit and expiry, and removes the chart', () => {
    const { document } = signedReceipt();
    const data = receiptChartData(document);
    const { unmount } = render(<ReceiptTickChart document={document} />);

    expect(fake.createChart).toHaveBeenCalledTimes(1);
    const options = (fake.createChart.mock.calls[0] as unknown as [HTMLElement, Record<string, never>])[1];
    const { timeFormatter } = options.localization as unknown as { timeFormatter: (time: number) => string };
    expect(timeFormatter(data.expiryTime!)).toMatch(/^expiry \d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(timeFormatter(1)).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
    const { tickMarkFormatter } = options.timeScale as unknown as {
      tickMarkFormatter: (time: number) => string;
    };
    expect(tickMarkFormatter(data.expiryTime!)).toBe('expiry');
    expect(tickMarkFormatter(1)).toBe(timeFormatter(1));

    // The fixture's entry segment and exit segment are two runs of the chain: two lines, then the expiry.
    expect(data.runs).toHaveLength(2);
    const types = (fake.chart.addSeries.mock.calls as unknown as [unknown][]).map(([type]) => type);
    expect(types).toEqual([LineSeries, LineSeries, HistogramSeries]);
    const [entryLine, exitLine, expiry] = fake.chart.addSeries.mock.results.map((result) => result.value);
    // The gap slot is whitespace of the first line.
    expect(entryLine.setData).toHaveBeenCalledWith([
      ...data.runs[0]!,
      ...data.gapTimes.map((time) => ({ time })),
    ]);
    expect(exitLine.setData).toHaveBeenCalledWith(data.runs[1]);
    expect(expiry.setData).toHaveBeenCalledWith([{ time: data.expiryTime, value: 1 }]);

    const markers = fake.createSeriesMarkers.mock.calls.map(([series, list]) => [series, list]);
    expect(markers).toEqual([
      [entryLine, [expect.objectContaining({ time: data.entryTime, text: 'Entry' })]],
      [exitLine, [expect.objectContaining({ time: data.exitTime, text: 'Exit' })]],
    ]);

    expect(fake.chart.remove).not.toHaveBeenCalled();
    unmount();
    expect(fake.chart.remove).toHaveBeenCalledTimes(1);
  });
});
