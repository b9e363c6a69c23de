import { useCallback, useMemo, useState } from 'react';
import type { Timeframe } from '@updown/schemas/market';
import { AppHeader } from '../../components/app-header';
import { useSession } from '../../lib/session/session-context';
import { usePairs } from '../../features/market/api/get-pairs';
import { ChartErrorBoundary } from '../../features/market/components/chart-error-boundary';
import { PriceChart } from '../../features/market/components/price-chart';
import { TimeframeToolbar, type ChartType } from '../../features/market/components/timeframe-toolbar';
import { IndicatorLayer } from '../../features/indicators/components/indicator-layer';
import {
  IndicatorPanel,
  type IndicatorChangeHandler,
} from '../../features/indicators/components/indicator-panel';
import {
  DEFAULT_INDICATOR_SETTINGS,
  simpleIndicatorFlags,
  type IndicatorSettings,
} from '../../features/indicators/lib/indicator-settings';
import { loadIndicatorPreset } from '../../features/indicators/lib/preset-storage';
import { ActiveTradesBar } from '../../features/trades/components/active-trades-bar';
import { ChartTradesLayer } from '../../features/trades/components/chart-trades-layer';
import { TradePanel } from '../../features/trades/components/trade-panel';

const DEFAULT_PAIR = 'BTCUSDT';
const DEFAULT_PAYOUT_PCT = 80;

export function TradePage() {
  const { user } = useSession();
  const pairs = usePairs();
  const [selected, setSelected] = useState(DEFAULT_PAIR);
  const [timeframe, setTimeframe] = useState<Timeframe>('1m');
  const [chartType, setChartType] = useState<ChartType>('candlestick');
  const [price, setPrice] = useState<{ pair: string; value: number } | null>(null);
  // A saved preset comes back on reload; without one every indicator starts off.
  const [indicators, setIndicators] = useState<IndicatorSettings>(
    () => loadIndicatorPreset() ?? DEFAULT_INDICATOR_SETTINGS,
  );
  const [indicatorsOpen, setIndicatorsOpen] = useState(false);
  const onIndicatorChange = useCallback<IndicatorChangeHandler>(
    (id, config) => setIndicators((current) => ({ ...current, [id]: config })),
    [],
  );
  // The spec's five simple on/off flags, derived so they can never disagree with what is drawn.
  const flags = simpleIndicatorFlags(indicators);

  const activePairs = useMemo(() => (pairs.data ?? []).filter((pair) => pair.active), [pairs.data]);
  const pair = activePairs.find((candidate) => candidate.symbol === selected);
  const payoutPct = pair?.payout_pct ?? DEFAULT_PAYOUT_PCT;
  const onPrice = useCallback((value: number) => setPrice({ pair: selected, value }), [selected]);

  return (
    <div className="page trade-page">
      <AppHeader />
      <div className="pair-bar">
        {activePairs.map((candidate) => (
          <button
            key={candidate.symbol}
            type="button"
            aria-pressed={candidate.symbol === selected}
            className={candidate.symbol === selected ? 'pair-button pair-button--active' : 'pair-button'}
            onClick={() => setSelected(candidate.symbol)}
          >
            {candidate.display_name}
          </button>
        ))}
      </div>
      <div className="trade-layout">
        <section
          className="trade-layout__chart"
          data-indicators={Object.entries(flags)
            .filter(([, on]) => on)
            .map(([name]) => name)
            .join(' ')}
        >
          <TimeframeToolbar
            timeframe={timeframe}
            onTimeframe={setTimeframe}
            chartType={chartType}
            onChartType={setChartType}
            onIndicators={() => setIndicatorsOpen(true)}
          />
          <ChartErrorBoundary>
            <PriceChart
              pair={selected}
              displayName={pair?.display_name ?? selected}
              timeframe={timeframe}
              chartType={chartType}
              onPrice={onPrice}
            >
              {(view) => (
                <>
                  {/* Chart layers, each drawn from the same view. */}
                  <ChartTradesLayer view={view} enabled={user !== null} />
                  {view.pair === selected && null}
                  <IndicatorLayer
                    chart={view.chart}
                    series={view.series}
                    pair={view.pair}
                    bars={view.bars}
                    settings={indicators}
                  />
                </>
              )}
            </PriceChart>
          </ChartErrorBoundary>
        </section>
        <TradePanel
          pair={selected}
          currentPrice={price?.pair === selected ? price.value : null}
          payoutPct={payoutPct}
        />
      </div>
      <ActiveTradesBar enabled={user !== null} />
      {indicatorsOpen && (
        <IndicatorPanel
          initialSettings={indicators}
          onIndicatorChange={onIndicatorChange}
          onClose={() => setIndicatorsOpen(false)}
        />
      )}
    </div>
  );
}
