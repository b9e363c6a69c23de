import { useEffect, useMemo } from 'react';
import {
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type LineWidth,
} from 'lightweight-charts';
import { atrSeries, macdSeries, rsiSeries, stochasticSeries, type IndicatorBar } from '../lib/indicator-math';
import type { AtrSettings, MacdSettings, RsiSettings, StochasticSettings } from '../lib/indicator-settings';
import { drawOnChart, newPaneIndex, sizeIndicatorPane, useOwnedSeries } from './use-owned-series';

const LEVEL_COLOR = '#8b93a3';
const PANE_LINE = { priceLineVisible: false, crosshairMarkerVisible: false } as const;
/** Oscillators bounded to 0..100 keep that whole range in view, so their levels always show. */
const PERCENT_RANGE = {
  ...PANE_LINE,
  autoscaleInfoProvider: () => ({ priceRange: { minValue: 0, maxValue: 100 } }),
} as const;

interface LayerProps<C> {
  chart: IChartApi;
  bars: readonly IndicatorBar[];
  config: C;
}

/** MACD and ATR are in price units, a fraction of a pip on FX pairs: one decimal past the price's. */
interface PriceUnitProps {
  priceDecimals: number;
}

function priceFormatFor(priceDecimals: number) {
  const precision = priceDecimals + 1;
  return { type: 'price' as const, precision, minMove: 10 ** -precision };
}

/** Dashed overbought and oversold lines on an oscillator's series. */
function useLevels(
  chart: IChartApi,
  series: ISeriesApi<'Line'> | undefined,
  overbought: number,
  oversold: number,
) {
  useEffect(() => {
    if (!series) return;
    let lines: ReturnType<ISeriesApi<'Line'>['createPriceLine']>[] = [];
    drawOnChart(chart, () => {
      lines = [overbought, oversold].map((price) =>
        series.createPriceLine({ price, color: LEVEL_COLOR, lineWidth: 1, lineStyle: LineStyle.Dashed }),
      );
    });
    return () => drawOnChart(chart, () => lines.forEach((line) => series.removePriceLine(line)));
  }, [chart, series, overbought, oversold]);
}

export function RsiLayer({ chart, bars, config }: LayerProps<RsiSettings>) {
  const owned = useOwnedSeries(chart, (target) => {
    const line = target.addSeries(LineSeries, PERCENT_RANGE, newPaneIndex(target));
    sizeIndicatorPane(line);
    return [line] as const;
  });
  const { period, overbought, oversold, color, thickness } = config;
  const data = useMemo(() => rsiSeries(bars, period), [bars, period]);
  useLevels(chart, owned?.[0], overbought, oversold);

  useEffect(() => {
    if (!owned) return;
    drawOnChart(chart, () => {
      owned[0].applyOptions({ color, lineWidth: thickness as LineWidth, title: `RSI ${period}` });
      owned[0].setData(data);
    });
  }, [chart, owned, data, color, thickness, period]);

  return null;
}

export function MacdLayer({ chart, bars, config, priceDecimals }: LayerProps<MacdSettings> & PriceUnitProps) {
  const owned = useOwnedSeries(chart, (target) => {
    const priceFormat = priceFormatFor(priceDecimals);
    const histogram = target.addSeries(
      HistogramSeries,
      { priceLineVisible: false, priceFormat },
      newPaneIndex(target),
    );
    const pane = sizeIndicatorPane(histogram);
    const line = { ...PANE_LINE, priceFormat };
    return [
      histogram,
      target.addSeries(LineSeries, line, pane),
      target.addSeries(LineSeries, line, pane),
    ] as const;
  });
  const { fastPeriod, slowPeriod, signalPeriod, macdColor, signalColor, histogramColor } = config;
  const lines = useMemo(
    () => macdSeries(bars, fastPeriod, slowPeriod, signalPeriod),
    [bars, fastPeriod, slowPeriod, signalPeriod],
  );

  useEffect(() => {
    if (!owned) return;
    const [histogram, macd, signal] = owned;
    drawOnChart(chart, () => {
      histogram.applyOptions({ color: histogramColor });
      macd.applyOptions({
        color: macdColor,
        lineWidth: 2,
        title: `MACD ${fastPeriod}/${slowPeriod}/${signalPeriod}`,
      });
      signal.applyOptions({ color: signalColor, lineWidth: 1 });
      histogram.setData(lines.histogram);
      macd.setData(lines.macd);
      signal.setData(lines.signal);
    });
  }, [chart, owned, lines, macdColor, signalColor, histogramColor, fastPeriod, slowPeriod, signalPeriod]);

  return null;
}

export function StochasticLayer({ chart, bars, config }: LayerProps<StochasticSettings>) {
  const owned = useOwnedSeries(chart, (target) => {
    const k = target.addSeries(LineSeries, PERCENT_RANGE, newPaneIndex(target));
    return [k, target.addSeries(LineSeries, PERCENT_RANGE, sizeIndicatorPane(k))] as const;
  });
  const { kPeriod, dPeriod, smoothing, kColor, dColor, overbought, oversold } = config;
  const lines = useMemo(
    () => stochasticSeries(bars, kPeriod, dPeriod, smoothing),
    [bars, kPeriod, dPeriod, smoothing],
  );
  useLevels(chart, owned?.[0], overbought, oversold);

  useEffect(() => {
    if (!owned) return;
    const [k, d] = owned;
    drawOnChart(chart, () => {
      k.applyOptions({ color: kColor, lineWidth: 2, title: `Stoch ${kPeriod}/${dPeriod}/${smoothing}` });
      d.applyOptions({ color: dColor, lineWidth: 1 });
      k.setData(lines.k);
      d.setData(lines.d);
    });
  }, [chart, owned, lines, kColor, dColor, kPeriod, dPeriod, smoothing]);

  return null;
}

export function AtrLayer({ chart, bars, config, priceDecimals }: LayerProps<AtrSettings> & PriceUnitProps) {
  const owned = useOwnedSeries(chart, (target) => {
    const priceFormat = priceFormatFor(priceDecimals);
    const line = target.addSeries(LineSeries, { ...PANE_LINE, priceFormat }, newPaneIndex(target));
    sizeIndicatorPane(line);
    return [line] as const;
  });
  const { period, color, thickness } = config;
  const data = useMemo(() => atrSeries(bars, period), [bars, period]);

  useEffect(() => {
    if (!owned) return;
    drawOnChart(chart, () => {
      owned[0].applyOptions({ color, lineWidth: thickness as LineWidth, title: `ATR ${period}` });
      owned[0].setData(data);
    });
  }, [chart, owned, data, color, thickness, period]);

  return null;
}
