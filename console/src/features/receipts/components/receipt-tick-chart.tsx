import { useEffect, useMemo, useRef } from 'react';
import {
  ColorType,
  HistogramSeries,
  LineSeries,
  createChart,
  createSeriesMarkers,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { ReceiptDocument } from '../api/get-receipt';
import { chartPriceDecimals, receiptChartData } from './receipt-chart-data';

const COLORS = {
  text: '#9aa4b2',
  grid: '#1c2230',
  line: '#3b82f6',
  entry: '#16c784',
  exit: '#f5a623',
  expiry: 'rgba(255, 90, 100, 0.55)',
};
const CHART_HEIGHT_PX = 220;
/** The expiry line is a histogram bar on a scale of its own whose top is the pane's top. */
const EXPIRY_SCALE_ID = 'expiry';

/** The slots are tick positions, not seconds (see receipt-chart-data.ts): the chart's "time" is a slot. */
function slot(time: number): UTCTimestamp {
  return time as UTCTimestamp;
}

/**
 * The proof's ticks around entry and around expiry, one point per tick, with the entry and exit
 * ticks marked and the expiry instant drawn as a vertical line. Created in an effect and removed in
 * its cleanup; the data never changes while the dialog is open, so nothing updates it.
 */
export function ReceiptTickChart({ document }: { document: ReceiptDocument }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const data = useMemo(() => receiptChartData(document), [document]);
  const decimals = useMemo(() => chartPriceDecimals(document), [document]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const label = (time: Time) => data.labels.get(Number(time)) ?? '';
    // On the axis the expiry is named only: its time would run into its neighbours' labels.
    const axisLabel = (time: Time) => (Number(time) === data.expiryTime ? 'expiry' : label(time));
    const chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: COLORS.text,
        // The logo injects a <style> element, which the CSP refuses (see the price chart).
        attributionLogo: false,
      },
      grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
      localization: { timeFormatter: label },
      timeScale: { tickMarkFormatter: axisLabel, fixLeftEdge: true, fixRightEdge: true },
      handleScroll: false,
      handleScale: false,
    });
    const lineOptions = {
      color: COLORS.line,
      lineWidth: 2,
      pointMarkersVisible: true,
      priceLineVisible: false,
      lastValueVisible: false,
      priceFormat: { type: 'price', precision: decimals, minMove: 10 ** -decimals },
    } as const;
    // One line per continuous run of the chain: a gap is never bridged. The empty gap slots are
    // whitespace of the first line, which gives them their place on the axis.
    data.runs.forEach((run, index) => {
      const line = chart.addSeries(LineSeries, lineOptions);
      const gaps = index === 0 ? data.gapTimes.map((time) => ({ time })) : [];
      line.setData(
        [...run, ...gaps]
          .sort((a, b) => a.time - b.time)
          .map((point) => ({ ...point, time: slot(point.time) })),
      );
      const markers: SeriesMarker<Time>[] = [];
      if (data.entryTime !== null && run.some((point) => point.time === data.entryTime))
        markers.push({
          time: slot(data.entryTime),
          position: 'belowBar',
          shape: 'arrowUp',
          color: COLORS.entry,
          text: 'Entry',
        });
      if (data.exitTime !== null && run.some((point) => point.time === data.exitTime))
        markers.push({
          time: slot(data.exitTime),
          position: 'aboveBar',
          shape: 'arrowDown',
          color: COLORS.exit,
          text: 'Exit',
        });
      if (markers.length > 0) createSeriesMarkers(line, markers);
    });

    if (data.expiryTime !== null) {
      const expiry = chart.addSeries(HistogramSeries, {
        priceScaleId: EXPIRY_SCALE_ID,
        color: COLORS.expiry,
        priceLineVisible: false,
        lastValueVisible: false,
      });
      chart.priceScale(EXPIRY_SCALE_ID).applyOptions({ scaleMargins: { top: 0, bottom: 0 }, visible: false });
      expiry.setData([{ time: slot(data.expiryTime), value: 1 }]);
    }
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [data, decimals]);

  return (
    <figure className="receipt-chart">
      <div
        ref={containerRef}
        className="receipt-chart__canvas"
        style={{ height: CHART_HEIGHT_PX }}
        data-testid="receipt-chart"
      />
      <figcaption className="muted small">
        One point per stored tick (the axis is tick order, each labelled with its time); the red band is the
        expiry instant, between the exit tick and the first tick after it.
      </figcaption>
    </figure>
  );
}
