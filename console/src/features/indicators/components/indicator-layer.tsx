import type { IChartApi, ISeriesApi, SeriesType } from 'lightweight-charts';
import { priceDecimals } from '../../../lib/format';
import type { IndicatorBar } from '../lib/indicator-math';
import type { IndicatorSettings } from '../lib/indicator-settings';
import { BollingerLayer, FibonacciLayer, MovingAverageLayer, PsarLayer, VolumeLayer } from './overlay-layers';
import { AtrLayer, MacdLayer, RsiLayer, StochasticLayer } from './pane-layers';

/** Indicators need this much history to mean anything; below it nothing is drawn. */
export const MIN_INDICATOR_BARS = 50;

interface Props {
  chart: IChartApi;
  /** The chart's main (price) series; Fibonacci levels are its price lines. */
  series: ISeriesApi<SeriesType>;
  pair: string;
  bars: readonly IndicatorBar[];
  settings: IndicatorSettings;
}

/** How many panes the enabled indicators add under the price pane. */
export function indicatorPaneCount(settings: IndicatorSettings): number {
  const { volume, rsi, macd, stochastic, atr } = settings;
  return [
    volume.enabled && !volume.overlay,
    rsi.enabled,
    macd.enabled,
    stochastic.enabled,
    atr.enabled,
  ].filter(Boolean).length;
}

/**
 * Every enabled indicator, drawn into the chart with its settings. Each indicator is a component
 * that owns its series: switching it off unmounts it and removes them, and with fewer than
 * `MIN_INDICATOR_BARS` bars (a pair or timeframe still loading) none is mounted. Panes open in
 * this order when several are switched on together; one switched on later goes to the bottom.
 */
export function IndicatorLayer({ chart, series, pair, bars, settings }: Props) {
  if (bars.length < MIN_INDICATOR_BARS) return null;
  const decimals = priceDecimals(pair);
  const { ma, ema, bb, psar, fibonacci, volume, rsi, macd, stochastic, atr } = settings;
  const common = { chart, bars };
  const panes = indicatorPaneCount(settings);

  return (
    <>
      {/* Read by the stylesheet to give a chart with indicator panes more height. */}
      <span hidden className="indicator-layer" data-panes={panes} />
      {volume.enabled && (
        <VolumeLayer key={volume.overlay ? 'overlay' : 'pane'} {...common} config={volume} />
      )}
      {bb.enabled && <BollingerLayer {...common} config={bb} />}
      {ma.enabled && <MovingAverageLayer {...common} config={ma} kind="sma" />}
      {ema.enabled && <MovingAverageLayer {...common} config={ema} kind="ema" />}
      {psar.enabled && <PsarLayer {...common} config={psar} />}
      {fibonacci.enabled && <FibonacciLayer {...common} series={series} config={fibonacci} />}
      {rsi.enabled && <RsiLayer {...common} config={rsi} />}
      {macd.enabled && <MacdLayer {...common} config={macd} priceDecimals={decimals} />}
      {stochastic.enabled && <StochasticLayer {...common} config={stochastic} />}
      {atr.enabled && <AtrLayer {...common} config={atr} priceDecimals={decimals} />}
    </>
  );
}
