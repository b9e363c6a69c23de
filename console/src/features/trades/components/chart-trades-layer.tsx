import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ChartView } from '../../../lib/chart-view';
import { activeTradesQueryOptions, type ActiveTrade } from '../api/get-active-trades';
import { tradeHistoryQueryOptions, type Trade } from '../api/get-trade-history';
import { ChartActiveTradesBox } from './chart-active-trades-box';
import { ChartExpiryLines, type ExpiryLine } from './chart-expiry-lines';
import { useChartFrame } from './chart-pane-frame';
import { useExpiringTrades, useTradeClock } from './chart-trade-clock';
import { ChartTradeBadges } from './chart-trade-badges';
import { useTradeHover } from './chart-trade-hover';
import { useTradeMarkers, type PanePoint } from './chart-trade-markers';
import type { ChartTrade } from './chart-trade-math';
import { expiryPhase } from './chart-trade-timeline';
import { ChartTradeTooltip } from './chart-trade-tooltip';

/** The chart polls the open trades and the recent history every 2 s (spec §9). */
export const CHART_ACTIVE_POLL_MS = 2000;
export const CHART_HISTORY_POLL_MS = 2000;

const NO_ACTIVE: readonly ActiveTrade[] = [];
const NO_HISTORY: readonly Trade[] = [];

/** Open trades and the chart pair's recent ones, as the chart polls them. */
function useChartTradeData(enabled: boolean) {
  const active = useQuery({ ...activeTradesQueryOptions(), enabled, refetchInterval: CHART_ACTIVE_POLL_MS });
  const history = useQuery({
    ...tradeHistoryQueryOptions(),
    enabled,
    refetchInterval: CHART_HISTORY_POLL_MS,
  });

  useEffect(() => {
    if (history.error) console.error('Failed to load trade history', history.error);
  }, [history.error]);

  // An active-trades failure on the chart clears its lists without a word (spec §8); the bar at
  // the bottom of the page logs it.
  const failed = active.isError;
  const open = failed || !active.data ? NO_ACTIVE : active.data;
  return { open, failed, history: history.data ?? NO_HISTORY };
}

/**
 * The trades drawn on the live chart: countdown badges, the Active Trades box, expiry and entry
 * lines for the chart's pair, entry markers for its recent trades, and a tooltip for whichever
 * of them is hovered.
 */
export function ChartTradesLayer({ view, enabled }: { view: ChartView; enabled: boolean }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const { open, failed, history } = useChartTradeData(enabled);
  const withExpiring = useExpiringTrades(open, failed);
  const now = useTradeClock(withExpiring.map((trade) => trade.expiry_ts));
  const frame = useChartFrame(view.chart, rootRef);
  const { hover, tooltipId, handlers, hoverMarker } = useTradeHover(rootRef);

  // Only pending trades whose expiry is still ahead count as active; soonest first.
  const active = useMemo(
    () =>
      withExpiring.filter((trade) => trade.expiry_ts * 1000 > now).sort((a, b) => a.expiry_ts - b.expiry_ts),
    [withExpiring, now],
  );
  const lines = withExpiring.flatMap((trade): ExpiryLine[] => {
    const phase = expiryPhase(trade.expiry_ts, now);
    return trade.pair === view.pair && phase !== null ? [{ trade, phase }] : [];
  });

  // The open trades win over their history rows, which lag behind by up to a poll.
  const pairTrades = useMemo(() => {
    const byId = new Map<string, ChartTrade>();
    for (const trade of history) if (trade.pair === view.pair) byId.set(trade.id, trade);
    for (const trade of withExpiring) if (trade.pair === view.pair) byId.set(trade.id, trade);
    return [...byId.values()];
  }, [history, withExpiring, view.pair]);

  const onMarkerHover = useCallback(
    (id: string | null, point: PanePoint | null) => hoverMarker(id, point, frame ?? { left: 0, top: 0 }),
    [hoverMarker, frame],
  );
  useTradeMarkers(view, pairTrades, onMarkerHover);

  // A badge or row disappears when its trade expires, without a mouseleave: its tooltip goes too.
  const hovered: ChartTrade | undefined =
    hover?.source === 'element'
      ? active.find((trade) => trade.id === hover.id)
      : hover
        ? pairTrades.find((trade) => trade.id === hover.id)
        : undefined;

  return (
    <div className="chart-trades" ref={rootRef}>
      <ChartTradeBadges trades={active} pair={view.pair} now={now} hover={handlers} frame={frame} />
      <ChartExpiryLines view={view} lines={lines} frame={frame} />
      <ChartActiveTradesBox trades={active} pair={view.pair} now={now} hover={handlers} frame={frame} />
      {hover && hovered && (
        <ChartTradeTooltip
          id={tooltipId}
          trade={hovered}
          price={hovered.pair === view.pair ? view.price : null}
          anchor={hover.anchor}
        />
      )}
    </div>
  );
}
