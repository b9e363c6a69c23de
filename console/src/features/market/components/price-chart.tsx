import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  CandlestickSeries,
  ColorType,
  LineSeries,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
  type UTCTimestamp,
} from 'lightweight-charts';
import { TIMEFRAMES, priceDecimals, type Timeframe } from '@updown/schemas/market';
import { ChartPanelFrame } from './chart-panel-frame';
import type { LivePriceMessage } from '@updown/schemas/api';
import { formatPrice } from '../../../lib/format';
import { useCandles } from '../api/get-candles';
import type { Bar, ChartView } from '../../../lib/chart-view';
import { applyTick } from './live-bars';
import type { ChartType } from './timeframe-toolbar';
import { useLivePrice } from './use-live-price';

/** The price label and the trade panel's price change at most once a second. */
export const PRICE_LABEL_INTERVAL_MS = 1000;
/** The chart opens on about the last 50 candles plus room for 15 more. */
const VISIBLE_BARS = 50;
const RIGHT_MARGIN_BARS = 15;

const COLORS = { up: '#16c784', down: '#ea3943', text: '#9aa4b2', grid: '#1c2230', line: '#3b82f6' };

export interface PriceChartProps {
  pair: string;
  displayName: string;
  timeframe: Timeframe;
  chartType: ChartType;
  onPrice(price: number): void;
  /** Layers composed by the page (indicators, trade markers), rendered inside the chart panel. */
  children?: (view: ChartView) => ReactNode;
}

function toPoint(bar: Bar, chartType: ChartType) {
  const { time, open, high, low, close } = bar;
  return chartType === 'line' ? { time, value: close } : { time, open, high, low, close };
}

export function PriceChart({ pair, displayName, timeframe, chartType, onPrice, children }: PriceChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const [chart, setChart] = useState<IChartApi | null>(null);
  /** The live series, cleared the moment its chart is removed (state only changes on the next render). */
  const seriesRef = useRef<ISeriesApi<SeriesType> | null>(null);
  const barsRef = useRef<Bar[]>([]);
  const barsChangedRef = useRef(false);
  const [shownBars, setShownBars] = useState<readonly Bar[]>([]);
  const [series, setSeries] = useState<ISeriesApi<SeriesType> | null>(null);
  const lastBarRef = useRef<Bar | null>(null);
  const latestPriceRef = useRef<number | null>(null);
  const [shownPrice, setShownPrice] = useState<number | null>(null);
  const candles = useCandles(pair, timeframe);

  // The chart lives as long as its type; React re-renders never touch it.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: COLORS.text,
        // The built-in logo injects a <style> element, which the CSP refuses; the licence's
        // attribution is the link under the chart instead.
        attributionLogo: false,
      },
      grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
      timeScale: { timeVisible: true, secondsVisible: false },
    });
    const created =
      chartType === 'line'
        ? chart.addSeries(LineSeries, { color: COLORS.line, lineWidth: 2 })
        : chart.addSeries(CandlestickSeries, {
            upColor: COLORS.up,
            downColor: COLORS.down,
            borderVisible: false,
            wickUpColor: COLORS.up,
            wickDownColor: COLORS.down,
          });
    chartRef.current = chart;
    seriesRef.current = created;
    setChart(chart);
    setSeries(created);
    return () => {
      seriesRef.current = null;
      setSeries(null);
      setChart(null);
      chartRef.current = null;
      // React cleans up a parent's effects before its children's, so the layers drawn into this
      // chart would detach their series and primitives from a chart already removed, and the chart
      // would then throw "Object is disposed" in its next animation frame. Removing it after the
      // commit lets every layer clean up on a live chart first.
      queueMicrotask(() => chart.remove());
    };
  }, [chartType]);

  // A new pair or timeframe starts from its own snapshot.
  useEffect(() => {
    lastBarRef.current = null;
    latestPriceRef.current = null;
    barsRef.current = [];
    barsChangedRef.current = false;
    setShownPrice(null);
    setShownBars([]);
  }, [pair, timeframe]);

  useEffect(() => {
    if (!series || !candles.data) return;
    const decimals = priceDecimals(pair);
    series.applyOptions({ priceFormat: { type: 'price', precision: decimals, minMove: 10 ** -decimals } });
    const bars: Bar[] = candles.data.map((candle) => ({ ...candle, time: candle.time as UTCTimestamp }));
    // Ticks that arrived after the snapshot was taken are newer than its last bar: keep them.
    const live = lastBarRef.current;
    const last = bars.at(-1);
    if (live && last && live.time >= last.time) {
      if (live.time === last.time) bars[bars.length - 1] = live;
      else bars.push(live);
    }
    series.setData(bars.map((bar) => toPoint(bar, chartType)));
    barsRef.current = bars;
    setShownBars(bars.slice());
    lastBarRef.current = bars.at(-1) ?? null;
    if (lastBarRef.current && latestPriceRef.current === null)
      latestPriceRef.current = lastBarRef.current.close;
    chartRef.current
      ?.timeScale()
      .setVisibleLogicalRange({ from: bars.length - VISIBLE_BARS, to: bars.length + RIGHT_MARGIN_BARS });
    // chartType is implied by `series`, which is recreated when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [series, candles.data, pair]);

  const onTick = useCallback(
    (message: LivePriceMessage) => {
      latestPriceRef.current = message.price;
      const next = applyTick(lastBarRef.current, message.price, message.ts, TIMEFRAMES[timeframe]);
      // A tick can arrive between a chart's removal and the re-render that drops its series.
      if (!next || !series || seriesRef.current !== series) return;
      const bars = barsRef.current;
      if (bars.length > 0 && bars[bars.length - 1]!.time === next.time) bars[bars.length - 1] = next;
      else bars.push(next);
      barsChangedRef.current = true;
      lastBarRef.current = next;
      series.update(toPoint(next, chartType));
    },
    [series, timeframe, chartType],
  );
  const live = useLivePrice(pair, onTick);

  useEffect(() => {
    const timer = setInterval(() => {
      if (barsChangedRef.current) {
        barsChangedRef.current = false;
        setShownBars(barsRef.current.slice());
      }
      const price = latestPriceRef.current;
      if (price === null) return;
      setShownPrice((shown) => (shown === price ? shown : price));
    }, PRICE_LABEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (shownPrice !== null) onPrice(shownPrice);
  }, [shownPrice, onPrice]);

  useEffect(() => {
    if (candles.error) console.error('Failed to load candles', candles.error);
  }, [candles.error]);

  return (
    <ChartPanelFrame
      displayName={displayName}
      price={shownPrice === null ? '—' : formatPrice(pair, shownPrice)}
      badge={live && <span className="live-badge">LIVE</span>}
      canvasRef={containerRef}
      overlay={candles.isPending ? `Loading ${pair}...` : undefined}
    >
      {chart && series && children?.({ chart, series, pair, timeframe, bars: shownBars, price: shownPrice })}
    </ChartPanelFrame>
  );
}
