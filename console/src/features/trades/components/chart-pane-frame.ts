import { useEffect, useState, type RefObject } from 'react';
import type { IChartApi } from 'lightweight-charts';

/** The chart's price pane in the layer's coordinates. */
export interface PaneFrame {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * False once the chart has been removed (its element leaves the page). A removed chart must not be
 * touched: detaching a primitive or a price line asks it for a redraw, which then fails in the
 * next animation frame ("Object is disposed"), outside any try/catch.
 */
export function chartAlive(chart: IChartApi): boolean {
  return chart.chartElement().isConnected;
}

/**
 * Measures the price pane against `rootRef` and re-renders whenever the chart scrolls, zooms or
 * resizes, so positions read from the chart during render stay current. Measuring waits for the
 * next frame, which also folds a burst of scroll events into one render. The time scale reports
 * only width changes; the chart getting shorter (the page's active-trades bar appearing) or moving
 * inside the panel is caught by observing both boxes.
 */
export function useChartFrame(chart: IChartApi, rootRef: RefObject<HTMLElement | null>): PaneFrame | null {
  const [frame, setFrame] = useState<PaneFrame | null>(null);
  useEffect(() => {
    let request = 0;
    const measure = () => {
      request = 0;
      const root = rootRef.current;
      if (!root || !chartAlive(chart)) return;
      const rootBox = root.getBoundingClientRect();
      const chartBox = chart.chartElement().getBoundingClientRect();
      const box = {
        left: chartBox.left - rootBox.left,
        top: chartBox.top - rootBox.top,
        width: chart.timeScale().width(),
        height: chart.paneSize(0).height,
      };
      // A new object even when the box is unchanged: a scroll moves what is drawn inside it.
      setFrame(box);
    };
    const schedule = () => {
      if (request === 0) request = window.requestAnimationFrame(measure);
    };
    const timeScale = chart.timeScale();
    timeScale.subscribeVisibleLogicalRangeChange(schedule);
    timeScale.subscribeSizeChange(schedule);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
    observer?.observe(chart.chartElement());
    if (rootRef.current) observer?.observe(rootRef.current);
    schedule();
    return () => {
      if (request !== 0) window.cancelAnimationFrame(request);
      observer?.disconnect();
      if (!chartAlive(chart)) return;
      timeScale.unsubscribeVisibleLogicalRangeChange(schedule);
      timeScale.unsubscribeSizeChange(schedule);
    };
  }, [chart, rootRef]);
  return frame;
}
