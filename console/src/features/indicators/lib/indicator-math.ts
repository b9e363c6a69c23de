import { IndicatorsSync } from '@ixjb94/indicators';
import type { UTCTimestamp } from 'lightweight-charts';
import { ATR, BollingerBands, EMA, MACD, RSI, SMA, StochasticOscillator, getAverage } from 'trading-signals';
import type { Bar } from '../../../lib/chart-view';
import { FIBONACCI_LEVELS, type Source } from './indicator-settings';

const tulip = new IndicatorsSync();

/**
 * Adapters from chart bars to indicator series. The maths is the `trading-signals` library's; these
 * functions only feed it bars in order and keep each result at its bar's time, so every output
 * point lines up with a candle. Points only start once the indicator has seen enough bars.
 */

/** A candle as the chart holds it; `volume` is tick volume (prices observed in the bar). */
export type IndicatorBar = Bar;

export interface Point {
  time: UTCTimestamp;
  value: number;
}

export function sourceValue(bar: IndicatorBar, source: Source): number {
  switch (source) {
    case 'close':
    case 'open':
    case 'high':
    case 'low':
      return bar[source];
    case 'hl2':
      return (bar.high + bar.low) / 2;
    case 'hlc3':
      return (bar.high + bar.low + bar.close) / 3;
    case 'ohlc4':
      return getAverage([bar.open, bar.high, bar.low, bar.close]);
  }
}

/** Runs `step` over every bar and keeps the non-null answers at their bar's time. */
function collect<T>(
  bars: readonly IndicatorBar[],
  step: (bar: IndicatorBar) => T | null,
): { time: UTCTimestamp; result: T }[] {
  const out: { time: UTCTimestamp; result: T }[] = [];
  for (const bar of bars) {
    const result = step(bar);
    if (result !== null) out.push({ time: bar.time, result });
  }
  return out;
}

function points(rows: { time: UTCTimestamp; result: number }[]): Point[] {
  return rows.map(({ time, result }) => ({ time, value: result }));
}

export function smaSeries(bars: readonly IndicatorBar[], period: number, source: Source = 'close'): Point[] {
  const sma = new SMA(period);
  return points(collect(bars, (bar) => sma.add(sourceValue(bar, source))));
}

/**
 * The library seeds its EMA with the first price, not with an SMA; its first `period - 1` values
 * lean on that seed, so they are left out, as the library's own `isStable` says.
 */
export function emaSeries(bars: readonly IndicatorBar[], period: number, source: Source = 'close'): Point[] {
  const ema = new EMA(period);
  return points(
    collect(bars, (bar) => {
      const value = ema.add(sourceValue(bar, source));
      return ema.isStable ? value : null;
    }),
  );
}

export interface Bands {
  upper: Point[];
  middle: Point[];
  lower: Point[];
}

/** Bollinger's bands: SMA ± `stdDev` population standard deviations of the closes. */
export function bollingerSeries(bars: readonly IndicatorBar[], length: number, stdDev: number): Bands {
  const bands = new BollingerBands(length, stdDev);
  const rows = collect(bars, (bar) => bands.add(bar.close));
  return {
    upper: rows.map(({ time, result }) => ({ time, value: result.upper })),
    middle: rows.map(({ time, result }) => ({ time, value: result.middle })),
    lower: rows.map(({ time, result }) => ({ time, value: result.lower })),
  };
}

/**
 * Wilder's RSI on closes. The library keeps a window of `period` prices and compares its last two,
 * so with period 1 it never answers; Wilder smoothing over one change is that change alone, so
 * RSI(1) is 100 after a rise and 0 after a fall (100 when unchanged, as the library does for no loss).
 */
export function rsiSeries(bars: readonly IndicatorBar[], period: number): Point[] {
  if (period === 1) {
    return bars.slice(1).map((bar, index) => ({
      time: bar.time,
      value: bar.close < bars[index]!.close ? 0 : 100,
    }));
  }
  const rsi = new RSI(period);
  return points(collect(bars, (bar) => rsi.add(bar.close)));
}

export interface MacdLines {
  macd: Point[];
  signal: Point[];
  histogram: Point[];
}

/** MACD line from the slow EMA's first value; signal and histogram once the signal EMA is stable. */
export function macdSeries(
  bars: readonly IndicatorBar[],
  fastPeriod: number,
  slowPeriod: number,
  signalPeriod: number,
): MacdLines {
  const macd = new MACD(new EMA(fastPeriod), new EMA(slowPeriod), new EMA(signalPeriod));
  const out: MacdLines = { macd: [], signal: [], histogram: [] };
  for (const bar of bars) {
    const result = macd.add(bar.close);
    if (result === null) continue;
    out.macd.push({ time: bar.time, value: result.macd });
    if (!macd.signal.isStable) continue;
    out.signal.push({ time: bar.time, value: result.signal });
    out.histogram.push({ time: bar.time, value: result.histogram });
  }
  return out;
}

/**
 * Wilder's Parabolic SAR, from Tulip Indicators' port (`@ixjb94/indicators`): trading-signals' PSAR
 * does not keep the SAR out of the two previous bars' range and steps a fixed 0.01 past the low on
 * a reversal (a hundred pips on EUR/USD), so its dots drift from Wilder's. Tulip starts on the
 * second bar, answering one value per bar from there.
 */
export function psarSeries(bars: readonly IndicatorBar[], step: number, maxStep: number): Point[] {
  if (bars.length < 2) return [];
  const highs = bars.map((bar) => bar.high);
  const lows = bars.map((bar) => bar.low);
  const sar = tulip.psar(highs, lows, step, maxStep);
  return bars.slice(1).map((bar, index) => ({ time: bar.time, value: sar[index]! }));
}

/** Wilder's ATR: true range smoothed with 1/period, seeded by the simple mean of the first ranges. */
export function atrSeries(bars: readonly IndicatorBar[], period: number): Point[] {
  const atr = new ATR(period);
  return points(collect(bars, (bar) => atr.add(bar)));
}

export interface StochasticLines {
  k: Point[];
  d: Point[];
}

/** Slow stochastic: %K over `kPeriod` bars smoothed by `smoothing`, %D its `dPeriod` SMA. */
export function stochasticSeries(
  bars: readonly IndicatorBar[],
  kPeriod: number,
  dPeriod: number,
  smoothing: number,
): StochasticLines {
  const stochastic = new StochasticOscillator({ kPeriod, dPeriod, kSlowingPeriod: smoothing });
  const rows = collect(bars, (bar) => stochastic.add(bar));
  return {
    k: rows.map(({ time, result }) => ({ time, value: result.stochK })),
    d: rows.map(({ time, result }) => ({ time, value: result.stochD })),
  };
}

export interface VolumeBar extends Point {
  color: string;
}

/** Tick volume per bar, coloured by the bar's direction (a flat bar counts as up). */
export function volumeSeries(bars: readonly IndicatorBar[], upColor: string, downColor: string): VolumeBar[] {
  return bars.map((bar) => ({
    time: bar.time,
    value: bar.volume,
    color: bar.close >= bar.open ? upColor : downColor,
  }));
}

export interface FibonacciLevel {
  level: number;
  price: number;
}

/** The retracement prices between a high (level 0) and a low (level 1.0). */
export function fibonacciLevels(high: number, low: number): FibonacciLevel[] {
  return FIBONACCI_LEVELS.map((level) => ({ level, price: high - (high - low) * level }));
}

/** The highest high and lowest low of `bars[from..to]` (indexes clamped), or null when empty. */
export function highLowOf(bars: readonly IndicatorBar[], from = 0, to = bars.length - 1) {
  const start = Math.max(0, Math.floor(from));
  const end = Math.min(bars.length - 1, Math.ceil(to));
  if (end < start) return null;
  let high = -Infinity;
  let low = Infinity;
  for (let index = start; index <= end; index++) {
    high = Math.max(high, bars[index]!.high);
    low = Math.min(low, bars[index]!.low);
  }
  return { high, low };
}
