import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Timeframe } from '@updown/schemas/market';
import { AppHeader } from '../../components/app-header';
import { useSession } from '../../lib/session/session-context';
import { candlesQueryOptions } from '../../features/market/api/get-candles';
import { usePairs } from '../../features/market/api/get-pairs';
import { ChartErrorBoundary } from '../../features/market/components/chart-error-boundary';
import { PairBar } from '../../features/market/components/pair-bar';
import { PriceChartPlaceholder } from '../../features/market/components/price-chart-placeholder';
import { TimeframeToolbar, type ChartType } from '../../features/market/components/timeframe-toolbar';
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
import { TradeReceiptActions } from '../../features/receipts/components/trade-receipt-actions';
import { ActiveTradesBar } from '../../features/trades/components/active-trades-bar';
import type { TradeActions } from '../../features/trades/components/trade-history';
import { TradePanel } from '../../features/trades/components/trade-panel';
// Only its type: the module itself is imported dynamically below.
import type { TradeChart } from './trade-chart';

type ChartCode = { component: typeof TradeChart } | { error: unknown };

/**
 * The chart and its layers (lightweight-charts is most of the page's code), fetched once the
 * page has painted and the browser is idle: parsing and starting the chart library takes a slow
 * phone's main thread for several hundred milliseconds, and the header, pairs and trade panel
 * should be on screen before that. `wanted` turns true when the download starts, so the candles
 * the chart opens on can download beside it. Loaded by hand rather than with React.lazy: React
 * holds back content that resolves inside a Suspense boundary until its fallback has been up for
 * 300 ms.
 */
function useTradeChartCode(): { wanted: boolean; code: ChartCode | undefined } {
  const [wanted, setWanted] = useState(false);
  const [code, setCode] = useState<ChartCode>();
  useEffect(() => {
    let current = true;
    let frame = 0;
    let idle: (() => void) | undefined;
    const load = () => {
      setWanted(true);
      import('./trade-chart').then(
        (module) => current && setCode({ component: module.TradeChart }),
        (error: unknown) => current && setCode({ error }),
      );
    };
    // The first frame callback runs before the page's first paint, the second one frame later,
    // once that paint is on screen; the download starts when the browser is next idle.
    frame = window.requestAnimationFrame(() => {
      frame = window.requestAnimationFrame(() => {
        idle = whenIdle(load);
      });
    });
    return () => {
      current = false;
      window.cancelAnimationFrame(frame);
      idle?.();
    };
  }, []);
  return { wanted, code };
}

/** Longest wait for an idle moment on a busy phone. */
const IDLE_WAIT_MS_MAX = 1000;

/** Runs `task` when the browser is idle (soon after, where it cannot tell); returns a cancel function. */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: IDLE_WAIT_MS_MAX });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(task);
  return () => clearTimeout(timer);
}

/** Rethrows a failed chart download inside the chart's error boundary, which offers a reload. */
function ChartLoadFailed({ error }: { error: unknown }): never {
  throw error;
}

/** Each settled trade of the History tab gets its receipt and dispute status. */
const receiptActions: TradeActions = (trade) => <TradeReceiptActions trade={trade} />;

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
  const displayName = pair?.display_name ?? selected;
  // Until the pairs load nothing says otherwise; the server refuses a trade on a pair that is not live.
  const feedStatus = pair?.feed_status ?? 'live';
  // Likewise open and unskewed until the pairs load: the server refuses a placement that would
  // pay less than the payout shown (PAYOUT_CHANGED) or that a suspended pair cannot take.
  const realTrading = pair?.real_trading ?? 'open';
  const payoutUpPct = pair?.payout_up_pct ?? payoutPct;
  const payoutDownPct = pair?.payout_down_pct ?? payoutPct;
  const refetchPairs = pairs.refetch;
  const onMarketStale = useCallback(() => void refetchPairs(), [refetchPairs]);
  const { wanted: chartWanted, code: chartCode } = useTradeChartCode();
  // The chart's snapshot is asked for by the page as well as by the chart: it downloads while the
  // chart's code does, instead of after it, and the chart draws its candles on its first pass.
  useQuery({ ...candlesQueryOptions(selected, timeframe), enabled: chartWanted });
  const onPrice = useCallback((value: number) => setPrice({ pair: selected, value }), [selected]);

  return (
    <div className="page trade-page">
      <AppHeader />
      <PairBar pairs={activePairs} selected={selected} onSelect={setSelected} />
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
            {chartCode === undefined ? (
              <PriceChartPlaceholder pair={selected} displayName={displayName} />
            ) : 'error' in chartCode ? (
              <ChartLoadFailed error={chartCode.error} />
            ) : (
              <chartCode.component
                pair={selected}
                displayName={displayName}
                timeframe={timeframe}
                chartType={chartType}
                onPrice={onPrice}
                indicators={indicators}
                signedIn={user !== null}
              />
            )}
          </ChartErrorBoundary>
        </section>
        <TradePanel
          pair={selected}
          currentPrice={price?.pair === selected ? price.value : null}
          payoutPct={payoutPct}
          payoutUpPct={payoutUpPct}
          payoutDownPct={payoutDownPct}
          feedStatus={feedStatus}
          realTrading={realTrading}
          onMarketStale={onMarketStale}
          renderTradeActions={receiptActions}
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
