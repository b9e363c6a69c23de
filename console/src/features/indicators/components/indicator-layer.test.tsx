// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { IChartApi, ISeriesApi, SeriesType, UTCTimestamp } from 'lightweight-charts';
import type { IndicatorBar } from '../lib/indicator-math';
import { DEFAULT_INDICATOR_SETTINGS, type IndicatorSettings } from '../lib/indicator-settings';
import { IndicatorLayer, MIN_INDICATOR_BARS } from './indicator-layer';

/**
 * A stand-in for the chart that records what the layer asks of it. Canvas drawing is the chart
 * library's business; this checks which series exist, where, and with what data.
 */
function fakeChart() {
  const element = document.createElement('div');
  document.body.appendChild(element);
  const panes: { series: FakeSeries[]; stretch: number }[] = [{ series: [], stretch: 1 }];
  const removed: FakeSeries[] = [];

  interface FakeSeries {
    kind: string;
    options: Record<string, unknown>;
    data: unknown[];
    priceLines: Record<string, unknown>[];
  }

  const paneOf = (series: FakeSeries) => panes.findIndex((pane) => pane.series.includes(series));
  const api = (series: FakeSeries) => ({
    raw: series,
    applyOptions: (options: Record<string, unknown>) => Object.assign(series.options, options),
    setData: (data: unknown[]) => {
      series.data = data;
    },
    createPriceLine: (options: Record<string, unknown>) => {
      const line = { ...options, applyOptions: (next: Record<string, unknown>) => Object.assign(line, next) };
      series.priceLines.push(line);
      return line;
    },
    removePriceLine: (line: Record<string, unknown>) => {
      series.priceLines = series.priceLines.filter((candidate) => candidate !== line);
    },
    attachPrimitive: () => {},
    priceScale: () => ({ applyOptions: () => {} }),
    getPane: () => ({
      paneIndex: () => paneOf(series),
      setStretchFactor: (stretch: number) => {
        panes[paneOf(series)]!.stretch = stretch;
      },
    }),
  });

  const chart = {
    chartElement: () => element,
    panes: () => panes,
    addSeries: (definition: { type?: string }, options: Record<string, unknown>, paneIndex = 0) => {
      const series: FakeSeries = {
        kind: definition.type ?? '?',
        options: { ...options },
        data: [],
        priceLines: [],
      };
      while (panes.length <= paneIndex) panes.push({ series: [], stretch: 1 });
      panes[paneIndex]!.series.push(series);
      return api(series);
    },
    removeSeries: (handle: { raw: FakeSeries }) => {
      const index = paneOf(handle.raw);
      panes[index]!.series = panes[index]!.series.filter((series) => series !== handle.raw);
      removed.push(handle.raw);
      // Like the library, an emptied pane (other than the price pane) goes away.
      if (index > 0 && panes[index]!.series.length === 0) panes.splice(index, 1);
    },
    timeScale: () => ({
      getVisibleLogicalRange: () => null,
      subscribeVisibleLogicalRangeChange: () => {},
      unsubscribeVisibleLogicalRangeChange: () => {},
    }),
  };
  const mainSeries = chart.addSeries({ type: 'Candlestick' }, {});
  return {
    chart: chart as unknown as IChartApi,
    series: mainSeries as unknown as ISeriesApi<SeriesType>,
    panes,
    removed,
    /** What `chart.remove()` does to the element, as the price chart does on a chart-type change. */
    destroy: () => element.remove(),
  };
}

function bars(count: number): IndicatorBar[] {
  return Array.from({ length: count }, (_, i) => {
    const close = 100 + Math.sin(i / 3) * 5 + i * 0.1;
    return {
      time: (1_767_614_400 + i * 60) as UTCTimestamp,
      open: close - 0.5,
      high: close + 1,
      low: close - 1,
      close,
      volume: 10 + i,
    };
  });
}

function withEnabled(...ids: (keyof IndicatorSettings)[]): IndicatorSettings {
  const settings = structuredClone(DEFAULT_INDICATOR_SETTINGS);
  for (const id of ids) settings[id].enabled = true;
  return settings;
}

function renderLayer(fake: ReturnType<typeof fakeChart>, settings: IndicatorSettings, count = 60) {
  const props = { chart: fake.chart, series: fake.series, pair: 'BTCUSDT' };
  const view = render(<IndicatorLayer {...props} bars={bars(count)} settings={settings} />);
  return {
    ...view,
    update: (next: IndicatorSettings, nextCount = count) =>
      view.rerender(<IndicatorLayer {...props} bars={bars(nextCount)} settings={next} />),
  };
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('IndicatorLayer', () => {
  it('draws nothing below the minimum of bars and removes what it drew when bars drop under it', () => {
    const fake = fakeChart();
    const { update } = renderLayer(fake, withEnabled('ma', 'rsi'), MIN_INDICATOR_BARS - 1);
    expect(fake.panes).toHaveLength(1);
    expect(fake.panes[0]!.series).toHaveLength(1);

    update(withEnabled('ma', 'rsi'), MIN_INDICATOR_BARS);
    expect(fake.panes).toHaveLength(2);
    expect(fake.panes[0]!.series.map((series) => series.kind)).toEqual(['Candlestick', 'Line']);

    update(withEnabled('ma', 'rsi'), 10);
    expect(fake.panes).toHaveLength(1);
    expect(fake.removed).toHaveLength(2);
  });

  it('draws an overlay with its settings on the price pane', () => {
    const fake = fakeChart();
    const settings = withEnabled('ma');
    settings.ma = { ...settings.ma, period: 10, color: '#123456', thickness: 3 };
    renderLayer(fake, settings);
    const line = fake.panes[0]!.series[1]!;
    expect(line.options).toMatchObject({ color: '#123456', lineWidth: 3 });
    // Sixty bars with a ten-bar average: the first value is on the tenth bar.
    expect(line.data).toHaveLength(51);
  });

  it('gives RSI, MACD, Stochastic and ATR panes of their own, with RSI’s levels', () => {
    const fake = fakeChart();
    renderLayer(fake, withEnabled('rsi', 'macd', 'stochastic', 'atr'));
    expect(fake.panes.map((pane) => pane.series.length)).toEqual([1, 1, 3, 2, 1]);
    expect(fake.panes.slice(1).every((pane) => pane.stretch < 1)).toBe(true);
    const rsi = fake.panes[1]!.series[0]!;
    expect(rsi.data).toHaveLength(60 - 14);
    expect(rsi.priceLines.map((line) => line.price)).toEqual([70, 30]);
    const [histogram, macd, signal] = fake.panes[2]!.series;
    expect([histogram!.kind, macd!.kind, signal!.kind]).toEqual(['Histogram', 'Line', 'Line']);
    expect(macd!.data).toHaveLength(60 - 25);
    expect(signal!.data).toHaveLength(60 - 25 - 8);
  });

  it('puts volume on the price pane with its own scale or in a pane of its own', () => {
    const fake = fakeChart();
    const settings = withEnabled('volume');
    const { update } = renderLayer(fake, settings);
    expect(fake.panes).toHaveLength(1);
    expect(fake.panes[0]!.series[1]!.options).toMatchObject({ priceScaleId: 'indicator-volume' });

    update({ ...settings, volume: { ...settings.volume, overlay: false } });
    expect(fake.panes).toHaveLength(2);
    expect(fake.panes[1]!.series[0]!.data[0]).toMatchObject({ value: 10, color: '#16c784' });
  });

  it('draws Fibonacci levels as price lines on the main series', () => {
    const fake = fakeChart();
    renderLayer(fake, withEnabled('fibonacci'));
    const main = fake.panes[0]!.series[0]!;
    expect(main.priceLines.map((line) => line.title)).toEqual([
      '0',
      '0.236',
      '0.382',
      '0.5',
      '0.618',
      '0.786',
      '1.0',
    ]);
    const prices = main.priceLines.map((line) => line.price as number);
    expect(prices[0]).toBeGreaterThan(prices[6]!);
  });

  it('removes an indicator’s series when it is switched off', () => {
    const fake = fakeChart();
    const { update } = renderLayer(fake, withEnabled('bb', 'psar', 'macd'));
    expect(fake.panes.map((pane) => pane.series.length)).toEqual([5, 3]);
    update(withEnabled('psar'));
    expect(fake.panes.map((pane) => pane.series.length)).toEqual([2]);
    expect(fake.removed).toHaveLength(6);
  });

  it('leaves a chart that has already been removed alone', () => {
    const fake = fakeChart();
    const { unmount } = renderLayer(fake, withEnabled('ma', 'rsi', 'fibonacci'));
    fake.destroy();
    expect(() => unmount()).not.toThrow();
    expect(fake.removed).toHaveLength(0);
  });

  it('draws on a replacement chart without touching the removed one', () => {
    const first = fakeChart();
    const settings = withEnabled('rsi', 'fibonacci');
    const view = render(
      <IndicatorLayer
        chart={first.chart}
        series={first.series}
        pair="BTCUSDT"
        bars={bars(60)}
        settings={settings}
      />,
    );
    const oldRsi = first.panes[1]!.series[0]!;
    const oldData = oldRsi.data;
    first.destroy();

    const second = fakeChart();
    view.rerender(
      <IndicatorLayer
        chart={second.chart}
        series={second.series}
        pair="BTCUSDT"
        bars={bars(61)}
        settings={settings}
      />,
    );
    expect(oldRsi.priceLines).toHaveLength(2);
    expect(oldRsi.data).toBe(oldData);
    expect(first.removed).toHaveLength(0);
    expect(second.panes).toHaveLength(2);
    expect(second.panes[1]!.series[0]!.data).toHaveLength(61 - 14);
    expect(second.panes[0]!.series[0]!.priceLines).toHaveLength(7);
  });
});
