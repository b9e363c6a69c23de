import { useEffect, useMemo, useRef, useState } from 'react';
import {
  createSeriesMarkers,
  type ISeriesMarkersPluginApi,
  type MouseEventParams,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { TIMEFRAMES } from '@updown/schemas/market';
import type { ChartView } from '../../../lib/chart-view';
import { chartAlive } from './chart-pane-frame';
import { tradeResult, type ChartTrade } from './chart-trade-math';
import { entryBarTime } from './chart-trade-timeline';

export const MARKER_COLORS = { active: '#3b82f6', won: '#16c784', lost: '#ea3943', neutral: '#8b93a3' };

function markerColor(status: ChartTrade['status']): string {
  if (status === 'pending') return MARKER_COLORS.active;
  if (status === 'won') return MARKER_COLORS.won;
  if (status === 'lost') return MARKER_COLORS.lost;
  return MARKER_COLORS.neutral;
}

/**
 * One marker per trade at its entry: in the bar that contains `created_at`, pointing at the entry
 * price from the side the trade bets on. Open trades are blue; settled ones are coloured and
 * labelled by their result. Trades whose entry bar is not on the chart are left out, and markers
 * come sorted by time, as the chart requires.
 */
export function tradeMarkers(
  trades: readonly ChartTrade[],
  barTimes: ReadonlySet<number>,
  timeframeSec: number,
): SeriesMarker<Time>[] {
  return trades
    .map((trade) => ({ trade, time: entryBarTime(trade.created_at, timeframeSec) }))
    .filter(({ time }) => barTimes.has(time))
    .sort((a, b) => a.time - b.time)
    .map(({ trade, time }) => {
      const up = trade.direction === 'UP';
      return {
        id: trade.id,
        time: time as UTCTimestamp,
        position: up ? 'atPriceBottom' : 'atPriceTop',
        price: trade.entry_price,
        shape: up ? 'arrowUp' : 'arrowDown',
        color: markerColor(trade.status),
        text: trade.status === 'pending' ? undefined : tradeResult(trade.status),
      } satisfies SeriesMarker<Time>;
    });
}

/** A point in the chart pane, as the crosshair reports it. */
export interface PanePoint {
  x: number;
  y: number;
}

/**
 * Draws the entry markers and reports which trade the pointer is over. The chart reports the id of
 * the hovered marker (and of the hovered entry price line, which carries the same id).
 */
export function useTradeMarkers(
  view: ChartView,
  trades: readonly ChartTrade[],
  onHover: (id: string | null, point: PanePoint | null) => void,
) {
  const { chart, series, bars, timeframe } = view;
  const [plugin, setPlugin] = useState<ISeriesMarkersPluginApi<Time> | null>(null);

  useEffect(() => {
    const created = createSeriesMarkers(series, [], { autoScale: false });
    setPlugin(created);
    return () => {
      setPlugin(null);
      // When the chart type changes the whole chart (and this series) is removed first.
      if (chartAlive(chart)) created.detach();
    };
  }, [chart, series]);

  const markers = useMemo(
    () => tradeMarkers(trades, new Set(bars.map((bar) => bar.time as number)), TIMEFRAMES[timeframe]),
    [trades, bars, timeframe],
  );

  useEffect(() => {
    plugin?.setMarkers(markers);
  }, [plugin, markers]);

  const onHoverRef = useRef(onHover);
  useEffect(() => {
    onHoverRef.current = onHover;
  }, [onHover]);

  useEffect(() => {
    const onMove = (param: MouseEventParams<Time>) => {
      const id = typeof param.hoveredObjectId === 'string' ? param.hoveredObjectId : null;
      onHoverRef.current(id, id !== null && param.point ? param.point : null);
    };
    chart.subscribeCrosshairMove(onMove);
    return () => {
      if (chartAlive(chart)) chart.unsubscribeCrosshairMove(onMove);
    };
  }, [chart]);
}
