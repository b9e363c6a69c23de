import { useEffect, useMemo, useState } from 'react';
import {
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type LineWidth,
  type SeriesType,
} from 'lightweight-charts';
import {
  bollingerSeries,
  emaSeries,
  fibonacciLevels,
  highLowOf,
  psarSeries,
  smaSeries,
  volumeSeries,
  type IndicatorBar,
} from '../lib/indicator-math';
import {
  FIBONACCI_LEVELS,
  formatFibonacciLevel,
  type BollingerSettings,
  type FibonacciSettings,
  type LineSettings,
  type PsarSettings,
  type VolumeSettings,
} from '../lib/indicator-settings';
import { BandFill } from './band-fill';
import {
  drawOnChart,
  isChartGone,
  newPaneIndex,
  sizeIndicatorPane,
  useOwnedSeries,
} from './use-owned-series';

/** The price pane. */
const PRICE_PANE = 0;
/** Overlays follow the main price scale but keep its axis to the price itself. */
const OVERLAY = { priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false } as const;
const FIBONACCI_COLORS = ['#9aa4b2', '#ef4444', '#f97316', '#eab308', '#22c55e', '#06b6d4', '#9aa4b2'];
/** Volume bars on the price pane keep to its bottom fifth, behind the candles' range. */
const VOLUME_OVERLAY_TOP = 0.8;

interface LayerProps<C> {
  chart: IChartApi;
  bars: readonly IndicatorBar[];
  config: C;
}

/** `#rrggbb` with an alpha channel, for fills and bars drawn over the candles. */
export function withAlpha(hex: string, alpha: number): string {
  const channel = (offset: number) => parseInt(hex.slice(offset, offset + 2), 16);
  return `rgba(${channel(1)}, ${channel(3)}, ${channel(5)}, ${alpha})`;
}

/** The moving average (`kind` 'sma') or the exponential one ('ema') of the chosen source. */
export function MovingAverageLayer({
  chart,
  bars,
  config,
  kind,
}: LayerProps<LineSettings> & { kind: 'sma' | 'ema' }) {
  const owned = useOwnedSeries(
    chart,
    (target) => [target.addSeries(LineSeries, OVERLAY, PRICE_PANE)] as const,
  );
  const { period, source, color, thickness } = config;
  const data = useMemo(
    () => (kind === 'sma' ? smaSeries : emaSeries)(bars, period, source),
    [kind, bars, period, source],
  );

  useEffect(() => {
    if (!owned) return;
    drawOnChart(chart, () => owned[0].applyOptions({ color, lineWidth: thickness as LineWidth }));
  }, [chart, owned, color, thickness]);

  useEffect(() => {
    if (owned) drawOnChart(chart, () => owned[0].setData(data));
  }, [chart, owned, data]);

  return null;
}

export function BollingerLayer({ chart, bars, config }: LayerProps<BollingerSettings>) {
  const fill = useMemo(() => new BandFill(), []);
  const owned = useOwnedSeries(chart, (target) => {
    const middle = target.addSeries(LineSeries, OVERLAY, PRICE_PANE);
    middle.attachPrimitive(fill);
    return [
      target.addSeries(LineSeries, OVERLAY, PRICE_PANE),
      middle,
      target.addSeries(LineSeries, OVERLAY, PRICE_PANE),
    ] as const;
  });
  const { length, stdDev, upperColor, middleColor, lowerColor, fillOpacity } = config;
  const bands = useMemo(() => bollingerSeries(bars, length, stdDev), [bars, length, stdDev]);

  useEffect(() => {
    if (!owned) return;
    const [upper, middle, lower] = owned;
    drawOnChart(chart, () => {
      upper.applyOptions({ color: upperColor, lineWidth: 1 });
      middle.applyOptions({ color: middleColor, lineWidth: 1 });
      lower.applyOptions({ color: lowerColor, lineWidth: 1 });
      upper.setData(bands.upper);
      middle.setData(bands.middle);
      lower.setData(bands.lower);
      // The band takes the upper band's colour at the chosen opacity.
      fill.update(bands.upper, bands.lower, withAlpha(upperColor, fillOpacity));
    });
  }, [chart, owned, fill, bands, upperColor, middleColor, lowerColor, fillOpacity]);

  return null;
}

/** Parabolic SAR as dots: a line series with the line hidden and a point at every value. */
export function PsarLayer({ chart, bars, config }: LayerProps<PsarSettings>) {
  const owned = useOwnedSeries(
    chart,
    (target) =>
      [
        target.addSeries(
          LineSeries,
          { ...OVERLAY, lineVisible: false, pointMarkersVisible: true },
          PRICE_PANE,
        ),
      ] as const,
  );
  const { step, maxStep, color, size } = config;
  const data = useMemo(() => psarSeries(bars, step, maxStep), [bars, step, maxStep]);

  useEffect(() => {
    if (!owned) return;
    drawOnChart(chart, () => {
      owned[0].applyOptions({ color, pointMarkersRadius: size });
      owned[0].setData(data);
    });
  }, [chart, owned, data, color, size]);

  return null;
}

/**
 * Tick volume as a histogram. Over the chart it has its own price scale squeezed into the bottom
 * of the price pane, with translucent bars; otherwise it gets a pane of its own.
 */
export function VolumeLayer({ chart, bars, config }: LayerProps<VolumeSettings>) {
  const { overlay, upColor, downColor } = config;
  const owned = useOwnedSeries(chart, (target) => {
    const options = { priceFormat: { type: 'volume' as const }, priceLineVisible: false };
    if (!overlay) {
      const series = target.addSeries(HistogramSeries, options, newPaneIndex(target));
      sizeIndicatorPane(series);
      return [series] as const;
    }
    const series = target.addSeries(
      HistogramSeries,
      { ...options, priceScaleId: 'indicator-volume', lastValueVisible: false },
      PRICE_PANE,
    );
    series.priceScale().applyOptions({ scaleMargins: { top: VOLUME_OVERLAY_TOP, bottom: 0 } });
    return [series] as const;
  });
  const data = useMemo(
    () =>
      overlay
        ? volumeSeries(bars, withAlpha(upColor, 0.5), withAlpha(downColor, 0.5))
        : volumeSeries(bars, upColor, downColor),
    [bars, overlay, upColor, downColor],
  );

  useEffect(() => {
    if (owned) drawOnChart(chart, () => owned[0].setData(data));
  }, [chart, owned, data]);

  return null;
}

/**
 * Fibonacci retracement between the highest high and the lowest low of the bars on screen, as
 * price lines on the main series; they move as the user scrolls or zooms.
 */
export function FibonacciLayer({
  chart,
  series,
  bars,
  config,
}: LayerProps<FibonacciSettings> & { series: ISeriesApi<SeriesType> }) {
  const [owned, setOwned] = useState<{ series: ISeriesApi<SeriesType>; lines: readonly IPriceLine[] } | null>(
    null,
  );
  // Lines of a series the chart has since replaced must not be touched (see useOwnedSeries).
  const lines = owned?.series === series ? owned.lines : null;
  const { thickness } = config;

  useEffect(() => {
    if (isChartGone(chart)) return;
    const created = FIBONACCI_LEVELS.map((level, index) =>
      series.createPriceLine({
        price: 0,
        color: FIBONACCI_COLORS[index],
        lineStyle: LineStyle.Solid,
        axisLabelVisible: true,
        title: formatFibonacciLevel(level),
      }),
    );
    setOwned({ series, lines: created });
    return () => {
      setOwned(null);
      if (isChartGone(chart)) return;
      for (const line of created) series.removePriceLine(line);
    };
  }, [chart, series]);

  useEffect(() => {
    if (!lines) return;
    drawOnChart(chart, () => {
      for (const line of lines) line.applyOptions({ lineWidth: thickness as LineWidth });
    });
  }, [chart, lines, thickness]);

  useEffect(() => {
    if (!lines || isChartGone(chart)) return;
    const timeScale = chart.timeScale();
    const place = () => {
      const range = timeScale.getVisibleLogicalRange();
      const extremes = range ? highLowOf(bars, range.from, range.to) : highLowOf(bars);
      if (!extremes) return;
      fibonacciLevels(extremes.high, extremes.low).forEach(({ price }, index) =>
        lines[index]!.applyOptions({ price }),
      );
    };
    place();
    timeScale.subscribeVisibleLogicalRangeChange(place);
    return () => {
      if (!isChartGone(chart)) timeScale.unsubscribeVisibleLogicalRangeChange(place);
    };
  }, [chart, lines, bars]);

  return null;
}
