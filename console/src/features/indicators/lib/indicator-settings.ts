/**
 * The ten indicators of the settings panel: their settings, defaults and the bounds the spec gives.
 * Defaults follow the classic parameters (SMA 20, EMA 12, Bollinger 20/2, RSI 14, MACD 12/26/9,
 * Stochastic 14/3/3, ATR 14, Parabolic SAR 0.02/0.2); every indicator starts off.
 */

export const SOURCES = ['close', 'open', 'high', 'low', 'hl2', 'hlc3', 'ohlc4'] as const;
export type Source = (typeof SOURCES)[number];

/** Retracement levels, fixed by the spec: 0 sits on the high and 1.0 on the low. */
export const FIBONACCI_LEVELS = [0, 0.236, 0.382, 0.5, 0.618, 0.786, 1] as const;

export interface LineSettings {
  enabled: boolean;
  period: number;
  color: string;
  thickness: number;
  source: Source;
}

export interface BollingerSettings {
  enabled: boolean;
  length: number;
  stdDev: number;
  upperColor: string;
  lowerColor: string;
  middleColor: string;
  fillOpacity: number;
}

export interface RsiSettings {
  enabled: boolean;
  period: number;
  overbought: number;
  oversold: number;
  color: string;
  thickness: number;
}

export interface MacdSettings {
  enabled: boolean;
  fastPeriod: number;
  slowPeriod: number;
  signalPeriod: number;
  macdColor: string;
  signalColor: string;
  histogramColor: string;
}

export interface PsarSettings {
  enabled: boolean;
  step: number;
  maxStep: number;
  color: string;
  size: number;
}

export interface AtrSettings {
  enabled: boolean;
  period: number;
  color: string;
  thickness: number;
}

export interface StochasticSettings {
  enabled: boolean;
  kPeriod: number;
  dPeriod: number;
  smoothing: number;
  kColor: string;
  dColor: string;
  overbought: number;
  oversold: number;
}

export interface VolumeSettings {
  enabled: boolean;
  upColor: string;
  downColor: string;
  overlay: boolean;
}

export interface FibonacciSettings {
  enabled: boolean;
  thickness: number;
}

export interface IndicatorSettings {
  ma: LineSettings;
  ema: LineSettings;
  bb: BollingerSettings;
  rsi: RsiSettings;
  macd: MacdSettings;
  psar: PsarSettings;
  atr: AtrSettings;
  stochastic: StochasticSettings;
  volume: VolumeSettings;
  fibonacci: FibonacciSettings;
}

export type IndicatorId = keyof IndicatorSettings;
export type IndicatorConfig = IndicatorSettings[IndicatorId];

type KeysOfType<S, T> = { [K in keyof S]: S[K] extends T ? K : never }[keyof S] & string;

export interface NumberField<S> {
  kind: 'number';
  key: KeysOfType<S, number>;
  label: string;
  min: number;
  max: number;
  step: number;
}

export type Field<S> =
  | NumberField<S>
  | { kind: 'color'; key: KeysOfType<S, string>; label: string }
  | { kind: 'source'; key: KeysOfType<S, Source>; label: string }
  | { kind: 'checkbox'; key: KeysOfType<S, boolean>; label: string }
  | { kind: 'levels'; label: string };

export interface IndicatorDefinition<Id extends IndicatorId = IndicatorId> {
  id: Id;
  name: string;
  fields: readonly Field<IndicatorSettings[Id]>[];
}

/** A definition of any one indicator (the union of the ten, not one over all their settings). */
export type AnyIndicatorDefinition = { [Id in IndicatorId]: IndicatorDefinition<Id> }[IndicatorId];

const int = (min: number, max: number) => ({ kind: 'number' as const, min, max, step: 1 });

const lineFields: readonly Field<LineSettings>[] = [
  { ...int(1, 200), key: 'period', label: 'Period' },
  { kind: 'color', key: 'color', label: 'Color' },
  { ...int(1, 5), key: 'thickness', label: 'Thickness' },
  { kind: 'source', key: 'source', label: 'Source' },
];

/** The panel's cards, in the spec's order, with the spec's labels and bounds. */
export const INDICATORS: { [Id in IndicatorId]: IndicatorDefinition<Id> } = {
  ma: { id: 'ma', name: 'Moving Average', fields: lineFields },
  ema: { id: 'ema', name: 'Exponential Moving Average', fields: lineFields },
  bb: {
    id: 'bb',
    name: 'Bollinger Bands',
    fields: [
      { ...int(1, 100), key: 'length', label: 'Length' },
      { kind: 'number', key: 'stdDev', label: 'Std Dev', min: 0.1, max: 5, step: 0.1 },
      { kind: 'color', key: 'upperColor', label: 'Upper Color' },
      { kind: 'color', key: 'lowerColor', label: 'Lower Color' },
      { kind: 'color', key: 'middleColor', label: 'Middle Color' },
      { kind: 'number', key: 'fillOpacity', label: 'Fill Opacity', min: 0, max: 1, step: 0.05 },
    ],
  },
  rsi: {
    id: 'rsi',
    name: 'Relative Strength Index',
    fields: [
      { ...int(1, 100), key: 'period', label: 'Period' },
      { ...int(50, 100), key: 'overbought', label: 'Overbought' },
      { ...int(0, 50), key: 'oversold', label: 'Oversold' },
      { kind: 'color', key: 'color', label: 'Color' },
      { ...int(1, 5), key: 'thickness', label: 'Thickness' },
    ],
  },
  macd: {
    id: 'macd',
    name: 'MACD',
    fields: [
      { ...int(1, 100), key: 'fastPeriod', label: 'Fast Period' },
      { ...int(1, 100), key: 'slowPeriod', label: 'Slow Period' },
      { ...int(1, 50), key: 'signalPeriod', label: 'Signal Period' },
      { kind: 'color', key: 'macdColor', label: 'MACD Color' },
      { kind: 'color', key: 'signalColor', label: 'Signal Color' },
      { kind: 'color', key: 'histogramColor', label: 'Histogram Color' },
    ],
  },
  psar: {
    id: 'psar',
    name: 'Parabolic SAR',
    fields: [
      { kind: 'number', key: 'step', label: 'Step', min: 0.01, max: 0.1, step: 0.01 },
      { kind: 'number', key: 'maxStep', label: 'Max Step', min: 0.1, max: 1, step: 0.1 },
      { kind: 'color', key: 'color', label: 'Color' },
      { ...int(1, 5), key: 'size', label: 'Size' },
    ],
  },
  atr: {
    id: 'atr',
    name: 'Average True Range',
    fields: [
      { ...int(1, 100), key: 'period', label: 'Period' },
      { kind: 'color', key: 'color', label: 'Color' },
      { ...int(1, 5), key: 'thickness', label: 'Thickness' },
    ],
  },
  stochastic: {
    id: 'stochastic',
    name: 'Stochastic Oscillator',
    fields: [
      { ...int(1, 100), key: 'kPeriod', label: '%K Period' },
      { ...int(1, 50), key: 'dPeriod', label: '%D Period' },
      { ...int(1, 10), key: 'smoothing', label: 'Smoothing' },
      { kind: 'color', key: 'kColor', label: '%K Color' },
      { kind: 'color', key: 'dColor', label: '%D Color' },
      { ...int(50, 100), key: 'overbought', label: 'Overbought' },
      { ...int(0, 50), key: 'oversold', label: 'Oversold' },
    ],
  },
  volume: {
    id: 'volume',
    name: 'Volume',
    fields: [
      { kind: 'color', key: 'upColor', label: 'Up Color' },
      { kind: 'color', key: 'downColor', label: 'Down Color' },
      { kind: 'checkbox', key: 'overlay', label: 'Overlay on Chart' },
    ],
  },
  fibonacci: {
    id: 'fibonacci',
    name: 'Fibonacci Retracement',
    fields: [
      { kind: 'levels', label: 'Levels' },
      { ...int(1, 5), key: 'thickness', label: 'Line Thickness' },
    ],
  },
};

export const INDICATOR_IDS = Object.keys(INDICATORS) as IndicatorId[];

export const DEFAULT_INDICATOR_SETTINGS: IndicatorSettings = {
  ma: { enabled: false, period: 20, color: '#f59e0b', thickness: 2, source: 'close' },
  ema: { enabled: false, period: 12, color: '#a855f7', thickness: 2, source: 'close' },
  bb: {
    enabled: false,
    length: 20,
    stdDev: 2,
    upperColor: '#60a5fa',
    lowerColor: '#60a5fa',
    middleColor: '#fbbf24',
    fillOpacity: 0.1,
  },
  rsi: { enabled: false, period: 14, overbought: 70, oversold: 30, color: '#a855f7', thickness: 2 },
  macd: {
    enabled: false,
    fastPeriod: 12,
    slowPeriod: 26,
    signalPeriod: 9,
    macdColor: '#3b82f6',
    signalColor: '#f97316',
    histogramColor: '#22c55e',
  },
  psar: { enabled: false, step: 0.02, maxStep: 0.2, color: '#eab308', size: 2 },
  atr: { enabled: false, period: 14, color: '#ef4444', thickness: 2 },
  stochastic: {
    enabled: false,
    kPeriod: 14,
    dPeriod: 3,
    smoothing: 3,
    kColor: '#3b82f6',
    dColor: '#f97316',
    overbought: 80,
    oversold: 20,
  },
  volume: { enabled: false, upColor: '#16c784', downColor: '#ea3943', overlay: true },
  fibonacci: { enabled: false, thickness: 1 },
};

/** The five on/off flags the spec gives the trading page, named as the spec names them. */
export interface SimpleIndicatorFlags {
  sma: boolean;
  ema: boolean;
  bb: boolean;
  rsi: boolean;
  macd: boolean;
}

export function simpleIndicatorFlags(settings: IndicatorSettings): SimpleIndicatorFlags {
  return {
    sma: settings.ma.enabled,
    ema: settings.ema.enabled,
    bb: settings.bb.enabled,
    rsi: settings.rsi.enabled,
    macd: settings.macd.enabled,
  };
}

function decimalsOf(step: number): number {
  const text = String(step);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Brings `value` inside the field's bounds and onto its step grid (counted from `min`). */
export function clampToField(value: number, field: { min: number; max: number; step: number }): number {
  const bounded = Math.min(field.max, Math.max(field.min, value));
  const stepped = field.min + Math.round((bounded - field.min) / field.step) * field.step;
  // Float steps (0.1, 0.05) leave noise such as 0.30000000000000004; the step's decimals are exact.
  return Number(Math.min(field.max, stepped).toFixed(decimalsOf(field.step)));
}

/** The spec's fixed levels as the panel shows them: 1 reads "1.0", the rest as written. */
export function formatFibonacciLevel(level: number): string {
  return Number.isInteger(level) && level !== 0 ? level.toFixed(1) : String(level);
}

/** Whether any indicator is drawn: without one the chart needs none of the indicator maths. */
export function anyIndicatorEnabled(settings: IndicatorSettings): boolean {
  return Object.values(settings).some((indicator) => indicator.enabled);
}
