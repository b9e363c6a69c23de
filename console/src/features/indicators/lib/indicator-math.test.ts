import { describe, expect, it } from 'vitest';
import type { UTCTimestamp } from 'lightweight-charts';
import {
  atrSeries,
  bollingerSeries,
  emaSeries,
  fibonacciLevels,
  highLowOf,
  macdSeries,
  psarSeries,
  rsiSeries,
  smaSeries,
  sourceValue,
  stochasticSeries,
  volumeSeries,
  type IndicatorBar,
  type Point,
} from './indicator-math';

const T0 = 1_767_614_400;

function barsOf(rows: { open?: number; high: number; low: number; close: number; volume?: number }[]) {
  return rows.map((row, index): IndicatorBar => ({
    time: (T0 + index * 60) as UTCTimestamp,
    open: row.open ?? row.close,
    volume: row.volume ?? 1,
    ...row,
  }));
}

function closesOnly(closes: readonly number[]) {
  return barsOf(closes.map((close) => ({ high: close, low: close, close })));
}

/** Published figures are rounded to `decimals`; each value must round the same way. */
function expectValues(points: readonly Point[], expected: readonly number[], decimals = 3) {
  expect(points.map((point) => point.value)).toHaveLength(expected.length);
  points.forEach((point, index) => {
    expect(Math.abs(point.value - expected[index]!)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9);
  });
}

/**
 * The sample day of Tulip Indicators' reference tests (tulipindicators.org, `tests/untest.txt`):
 * fifteen daily bars from November 2005. The expected figures below are Tulip's published outputs
 * for the same inputs, rounded to three decimals as published.
 */
const TULIP_HIGH = [
  82.15, 81.89, 83.03, 83.3, 83.85, 83.9, 83.33, 84.3, 84.84, 85.0, 85.9, 86.58, 86.98, 88.0, 87.87,
];
const TULIP_LOW = [
  81.29, 80.64, 81.31, 82.65, 83.07, 83.11, 82.49, 82.3, 84.15, 84.11, 84.03, 85.39, 85.76, 87.17, 87.01,
];
const TULIP_CLOSE = [
  81.59, 81.06, 82.87, 83.0, 83.61, 83.15, 82.84, 83.99, 84.55, 84.36, 85.53, 86.54, 86.89, 87.77, 87.29,
];
const TULIP = barsOf(TULIP_CLOSE.map((close, i) => ({ high: TULIP_HIGH[i]!, low: TULIP_LOW[i]!, close })));

describe('sourceValue', () => {
  const bar = barsOf([{ open: 10, high: 14, low: 8, close: 12 }])[0]!;

  it('reads the plain prices and the spec’s composite sources', () => {
    expect(sourceValue(bar, 'open')).toBe(10);
    expect(sourceValue(bar, 'high')).toBe(14);
    expect(sourceValue(bar, 'low')).toBe(8);
    expect(sourceValue(bar, 'close')).toBe(12);
    expect(sourceValue(bar, 'hl2')).toBe(11); // (14 + 8) / 2
    expect(sourceValue(bar, 'hlc3')).toBeCloseTo(34 / 3, 12); // (14 + 8 + 12) / 3
    expect(sourceValue(bar, 'ohlc4')).toBe(11); // (10 + 14 + 8 + 12) / 4
  });
});

describe('smaSeries', () => {
  it('averages the last `period` closes, starting on the period-th bar', () => {
    // (1+2+3)/3 = 2, (2+3+4)/3 = 3, (3+4+5)/3 = 4.
    const points = smaSeries(closesOnly([1, 2, 3, 4, 5]), 3);
    expect(points).toEqual([
      { time: T0 + 120, value: 2 },
      { time: T0 + 180, value: 3 },
      { time: T0 + 240, value: 4 },
    ]);
  });

  it('averages the chosen source', () => {
    const bars = barsOf([
      { high: 4, low: 2, close: 3 },
      { high: 8, low: 4, close: 5 },
    ]);
    // hl2 is 3 then 6, so their mean is 4.5.
    expect(smaSeries(bars, 2, 'hl2')).toEqual([{ time: T0 + 60, value: 4.5 }]);
  });

  it('matches Tulip’s sma 5', () => {
    const points = smaSeries(TULIP, 5);
    expect(points[0]!.time).toBe(TULIP[4]!.time);
    expectValues(
      points,
      [82.426, 82.738, 83.094, 83.318, 83.628, 83.778, 84.254, 84.994, 85.574, 86.218, 86.804],
    );
  });
});

describe('emaSeries', () => {
  it('weights by 2 / (period + 1) from a seed on the first close', () => {
    // α = 0.5: 2 → 3 → 4.5 → 6.25 → 8.125; the first two lean on the seed and are left out.
    expectValues(emaSeries(closesOnly([2, 4, 6, 8, 10]), 3), [4.5, 6.25, 8.125], 9);
  });

  it('matches Tulip’s ema 5, which seeds on the first close too', () => {
    const points = emaSeries(TULIP, 5);
    expect(points[0]!.time).toBe(TULIP[4]!.time);
    expectValues(
      points,
      [82.714, 82.859, 82.853, 83.232, 83.671, 83.901, 84.444, 85.143, 85.725, 86.407, 86.701],
    );
  });
});

describe('bollingerSeries', () => {
  it('puts the bands `stdDev` population deviations around the mean', () => {
    // The textbook population example: mean 5, standard deviation 2, so 5 ± 2·2.
    const bands = bollingerSeries(closesOnly([2, 4, 4, 4, 5, 5, 7, 9]), 8, 2);
    expectValues(bands.middle, [5], 9);
    expectValues(bands.upper, [9], 9);
    expectValues(bands.lower, [1], 9);
  });

  it('matches Tulip’s bbands 5 2', () => {
    const bands = bollingerSeries(TULIP, 5, 2);
    expect(bands.middle[0]!.time).toBe(TULIP[4]!.time);
    expectValues(
      bands.lower,
      [80.53, 80.987, 82.533, 82.472, 82.418, 82.435, 82.511, 83.143, 83.536, 83.87, 85.289],
    );
    expectValues(
      bands.middle,
      [82.426, 82.738, 83.094, 83.318, 83.628, 83.778, 84.254, 84.994, 85.574, 86.218, 86.804],
    );
    expectValues(
      bands.upper,
      [84.322, 84.489, 83.655, 84.164, 84.838, 85.121, 85.997, 86.845, 87.612, 88.566, 88.319],
    );
  });
});

describe('rsiSeries', () => {
  it('matches the classic Wilder RSI-14 worked example', () => {
    // StockCharts ChartSchool's RSI spreadsheet: these 33 closes and its published RSI column,
    // which starts on the 15th close (14 changes) with 70.53.
    const closes = [
      44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931,
      46.0328, 45.614, 46.282, 46.282, 46.0028, 46.0328, 46.4116, 46.2222, 45.6439, 46.2122, 46.2521, 45.7137,
      46.4515, 45.7835, 45.3548, 44.0288, 44.1783, 44.2181, 44.5672, 43.4205, 42.6628, 43.1314,
    ];
    const points = rsiSeries(closesOnly(closes), 14);
    expect(points[0]!.time).toBe(T0 + 14 * 60);
    expectValues(
      points,
      [
        70.53, 66.32, 66.55, 69.41, 66.36, 57.97, 62.93, 63.26, 56.06, 62.38, 54.71, 50.42, 39.99, 41.46,
        41.87, 45.46, 37.3, 33.08, 37.77,
      ],
      2,
    );
  });

  it('matches Tulip’s rsi 5', () => {
    expectValues(
      rsiSeries(TULIP, 5),
      [72.034, 64.927, 75.936, 79.796, 74.713, 83.033, 87.478, 88.755, 91.483, 78.498],
    );
  });

  it('answers period 1 with 100 after a rise and 0 after a fall', () => {
    expectValues(rsiSeries(closesOnly([5, 6, 4, 4]), 1), [100, 0, 100], 9);
  });
});

describe('macdSeries', () => {
  it('matches Tulip’s macd 2 5 9', () => {
    const lines = macdSeries(TULIP, 2, 5, 9);
    expect(lines.macd[0]!.time).toBe(TULIP[4]!.time);
    expectValues(lines.macd, [0.618, 0.351, 0.111, 0.416, 0.578, 0.422, 0.684, 0.927, 0.891, 0.979, 0.621]);
    // Tulip prints the signal from its seed on; the chart waits for nine MACD values (bar 13).
    expect(lines.signal[0]!.time).toBe(TULIP[12]!.time);
    expectValues(lines.signal, [0.656, 0.721, 0.701]);
    expectValues(lines.histogram, [0.235, 0.258, -0.08]);
  });

  it('settles at 7 on a rising line with 12/26/9', () => {
    // On closes rising by 1 a bar, an EMA(n) lags the price by (n − 1) / 2 once its seed has
    // decayed, so MACD = 12.5 − 5.5 = 7, the signal of a constant 7 is 7, and the histogram 0.
    const lines = macdSeries(closesOnly(Array.from({ length: 400 }, (_, i) => 100 + i)), 12, 26, 9);
    expect(lines.macd.at(-1)!.value).toBeCloseTo(7, 6);
    expect(lines.signal.at(-1)!.value).toBeCloseTo(7, 6);
    expect(lines.histogram.at(-1)!.value).toBeCloseTo(0, 6);
  });
});

describe('atrSeries', () => {
  it('matches Tulip’s atr 5 (Wilder smoothing)', () => {
    const points = atrSeries(TULIP, 5);
    expect(points[0]!.time).toBe(TULIP[4]!.time);
    expectValues(points, [1.116, 1.051, 1.009, 1.207, 1.136, 1.086, 1.243, 1.233, 1.23, 1.206, 1.137]);
  });

  it('counts gaps from the previous close', () => {
    // Closes step up by 3 with a range of ±1: the first true range is 2 (no previous close), every
    // later one 4 (high − previous close). Wilder: (2 + 13·4) / 14, then (prev·13 + 4) / 14.
    const bars = barsOf(
      Array.from({ length: 15 }, (_, i) => ({ high: 3 * i + 1, low: 3 * i - 1, close: 3 * i })),
    );
    expectValues(atrSeries(bars, 14), [54 / 14, ((54 / 14) * 13 + 4) / 14], 9);
  });
});

describe('stochasticSeries', () => {
  it('matches Tulip’s stoch 5 3 3', () => {
    const lines = stochasticSeries(TULIP, 5, 3, 3);
    expect(lines.k[0]!.time).toBe(TULIP[8]!.time);
    expectValues(lines.k, [77.385, 83.126, 84.867, 88.361, 95.246, 96.74, 91.091]);
    expectValues(lines.d, [75.702, 78.011, 81.793, 85.452, 89.491, 93.449, 94.359]);
  });

  it('places the close within the period’s range', () => {
    // %K(3) = 100·(close − lowest low) / (highest high − lowest low): bar 3 (11 − 8) / (12 − 8) = 75,
    // bar 4 (9 − 9) / 3 = 0, bar 5 (13 − 9) / 4 = 100; %D(2) averages the last two %K.
    const bars = barsOf([
      { high: 10, low: 8, close: 9 },
      { high: 11, low: 9, close: 10 },
      { high: 12, low: 10, close: 11 },
      { high: 12, low: 9, close: 9 },
      { high: 13, low: 11, close: 13 },
    ]);
    const lines = stochasticSeries(bars, 3, 2, 1);
    expectValues(lines.k, [0, 100], 9);
    expectValues(lines.d, [37.5, 50], 9);
  });
});

describe('psarSeries', () => {
  it('matches Tulip’s psar with step 0.2 and maximum 2', () => {
    const points = psarSeries(TULIP, 0.2, 2);
    expect(points[0]!.time).toBe(TULIP[1]!.time);
    expectValues(
      points,
      [82.15, 80.64, 80.64, 81.31, 82.65, 83.9, 82.3, 82.3, 82.3, 83.92, 84.03, 84.03, 85.39, 85.76],
    );
  });

  it('follows Wilder’s rule by hand with the classic 0.02 / 0.2', () => {
    // Bar 2's midpoint is above bar 1's, so the trend starts long from bar 1: SAR = its low 9,
    // EP = its high 10, AF 0.02. Each SAR is the last plus AF·(EP − SAR), then kept at or under the
    // lows of the two bars before it; every new high moves EP and adds 0.02 to AF.
    // Bar 2: 9 + 0.02·(10 − 9) = 9.02 → under bar 1's low: 9. High 11: EP 11, AF 0.04.
    // Bar 3: 9 + 0.04·(11 − 9) = 9.08 → under bar 1's low: 9. High 12: EP 12, AF 0.06.
    // Bar 4: 9 + 0.06·(12 − 9) = 9.18, under the lows 10 and 11, so it stands.
    const bars = barsOf([
      { high: 10, low: 9, close: 9.5 },
      { high: 11, low: 10, close: 10.5 },
      { high: 12, low: 11, close: 11.5 },
      { high: 13, low: 12, close: 12.5 },
    ]);
    expectValues(psarSeries(bars, 0.02, 0.2), [9, 9, 9.18], 9);
  });

  it('accepts a maximum equal to the step, which the spec’s bounds allow', () => {
    expect(() => psarSeries(TULIP, 0.1, 0.1)).not.toThrow();
    expect(psarSeries(TULIP, 0.1, 0.1)).toHaveLength(14);
  });
});

describe('volumeSeries', () => {
  it('colours each bar by its direction, a flat bar as up', () => {
    const bars = barsOf([
      { open: 1, high: 2, low: 1, close: 2, volume: 5 },
      { open: 2, high: 2, low: 1, close: 1, volume: 7 },
      { open: 1, high: 1, low: 1, close: 1, volume: 0 },
    ]);
    expect(volumeSeries(bars, 'up', 'down')).toEqual([
      { time: T0, value: 5, color: 'up' },
      { time: T0 + 60, value: 7, color: 'down' },
      { time: T0 + 120, value: 0, color: 'up' },
    ]);
  });
});

describe('fibonacciLevels', () => {
  it('places the fixed levels from the high (0) down to the low (1.0)', () => {
    const levels = fibonacciLevels(200, 100);
    expect(levels.map((level) => level.level)).toEqual([0, 0.236, 0.382, 0.5, 0.618, 0.786, 1]);
    expectValues(
      levels.map((level) => ({ time: T0 as UTCTimestamp, value: level.price })),
      [200, 176.4, 161.8, 150, 138.2, 121.4, 100],
      9,
    );
  });
});

describe('highLowOf', () => {
  it('takes the extremes of the bars in the range, clamped to the bars that exist', () => {
    expect(highLowOf(TULIP)).toEqual({ high: 88, low: 80.64 });
    expect(highLowOf(TULIP, 2.4, 4.2)).toEqual({ high: 83.9, low: 81.31 });
    expect(highLowOf(TULIP, -10, 1)).toEqual({ high: 82.15, low: 80.64 });
    expect(highLowOf([], 0, 5)).toBeNull();
  });
});
