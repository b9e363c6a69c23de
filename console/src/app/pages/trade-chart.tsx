import { Suspense, lazy, memo } from 'react';
import { PriceChart, type PriceChartProps } from '../../features/market/components/price-chart';
import {
  anyIndicatorEnabled,
  type IndicatorSettings,
} from '../../features/indicators/lib/indicator-settings';
import { ChartTradesLayer } from '../../features/trades/components/chart-trades-layer';

/*
 * The indicator maths (trading-signals, @ixjb94/indicators) load only once an indicator is
 * switched on; with every indicator off, as a trader starts, the chart never fetches them.
 */
const IndicatorLayer = lazy(() =>
  import('../../features/indicators/components/indicator-layer').then((module) => ({
    default: module.IndicatorLayer,
  })),
);

interface Props extends Omit<PriceChartProps, 'children'> {
  indicators: IndicatorSettings;
  signedIn: boolean;
}

/**
 * The trading page's chart with its layers, a chunk of its own (lightweight-charts is most of the
 * page's code): the rest of the page paints and takes trades while it loads. Memoised: the page
 * re-renders every second with the latest price, which the chart already draws from its own socket.
 */
export const TradeChart = memo(function TradeChart({
  pair,
  displayName,
  timeframe,
  chartType,
  onPrice,
  indicators,
  signedIn,
}: Props) {
  const withIndicators = anyIndicatorEnabled(indicators);
  return (
    <PriceChart
      pair={pair}
      displayName={displayName}
      timeframe={timeframe}
      chartType={chartType}
      onPrice={onPrice}
    >
      {(view) => (
        <>
          {/* Chart layers, each drawn from the same view. */}
          <ChartTradesLayer view={view} enabled={signedIn} />
          {withIndicators && (
            <Suspense fallback={null}>
              <IndicatorLayer
                chart={view.chart}
                series={view.series}
                pair={view.pair}
                bars={view.bars}
                settings={indicators}
              />
            </Suspense>
          )}
        </>
      )}
    </PriceChart>
  );
});
