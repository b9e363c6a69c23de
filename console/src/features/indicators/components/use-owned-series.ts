import { useEffect, useState } from 'react';
import type { IChartApi, ISeriesApi, SeriesType } from 'lightweight-charts';

/** Indicator panes share the chart's height with the price pane at this ratio each. */
const INDICATOR_PANE_STRETCH = 0.35;

/**
 * The chart is owned by the price chart, which removes it when the chart type changes; a layer
 * can still be holding series of that chart for one commit. A removed chart's element has left
 * the page, and nothing is drawn or removed on it after that.
 */
export function isChartGone(chart: IChartApi): boolean {
  try {
    return !chart.chartElement().isConnected;
  } catch {
    return true;
  }
}

/** Runs `draw` against the chart unless the chart has been removed under the layer. */
export function drawOnChart(chart: IChartApi, draw: () => void): void {
  if (!isChartGone(chart)) draw();
}

/** The index for a series that opens a new pane below the ones there now. */
export function newPaneIndex(chart: IChartApi): number {
  return chart.panes().length;
}

/** Gives the pane `series` sits in its share of the height, and answers its index. */
export function sizeIndicatorPane(series: ISeriesApi<SeriesType>): number {
  const pane = series.getPane();
  pane.setStretchFactor(INDICATOR_PANE_STRETCH);
  return pane.paneIndex();
}

/**
 * Series a layer owns: made by `create` when the layer mounts or the chart is replaced, and
 * removed when it unmounts (an indicator switched off, too few bars) or the chart changes. Later
 * setting and data changes go through `applyOptions`/`setData` on what this returns, so `create`
 * runs once per chart.
 */
export function useOwnedSeries<T extends readonly ISeriesApi<SeriesType>[]>(
  chart: IChartApi,
  create: (chart: IChartApi) => T,
): T | null {
  const [owned, setOwned] = useState<{ chart: IChartApi; series: T } | null>(null);

  useEffect(() => {
    if (isChartGone(chart)) return;
    const created = create(chart);
    setOwned({ chart, series: created });
    return () => {
      setOwned(null);
      if (isChartGone(chart)) return;
      for (const series of created) chart.removeSeries(series);
    };
    // `create` is read once per chart on purpose: see above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chart]);

  // In the render where the chart has just been replaced, the state still holds the old chart's
  // series; drawing on them would wake the removed chart, so until the new ones exist there are none.
  return owned?.chart === chart ? owned.series : null;
}
