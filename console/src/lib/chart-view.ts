import type { IChartApi, ISeriesApi, SeriesType, UTCTimestamp } from 'lightweight-charts';
import type { Timeframe } from '@updown/schemas/market';

/** One candle of the price chart. */
export interface Bar {
  time: UTCTimestamp;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Tick volume: prices observed in the bar. */
  volume: number;
}

/**
 * What a layer drawn over or into the chart gets: the chart and its main series (stable until the
 * chart type changes), the bars shown (a new array at most once a second) and the latest price.
 * The market feature's chart hands it to the layers the page composes (indicators, trades).
 */
export interface ChartView {
  chart: IChartApi;
  series: ISeriesApi<SeriesType>;
  pair: string;
  timeframe: Timeframe;
  bars: readonly Bar[];
  price: number | null;
}
