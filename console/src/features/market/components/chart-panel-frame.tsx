import type { ReactNode, Ref } from 'react';

interface Props {
  displayName: string;
  /** The price as shown, or '—' while there is none. */
  price: string;
  /** Beside the price, such as the LIVE badge. */
  badge?: ReactNode;
  /** Where the chart draws; the placeholder has no chart. */
  canvasRef?: Ref<HTMLDivElement>;
  /** Over the canvas while its data loads. */
  overlay?: string;
  children?: ReactNode;
}

/**
 * The chart panel's frame — pair and price label, canvas, attribution — shared by the chart and
 * by the placeholder that stands in for it while the chart's code loads, so the two keep one
 * size and one layout and nothing moves when the chart arrives. Imports nothing from the chart
 * library, so the trading page can show it before that chunk is fetched.
 */
export function ChartPanelFrame({ displayName, price, badge, canvasRef, overlay, children }: Props) {
  return (
    <div className="chart-panel">
      <div className="chart-panel__label">
        <span className="chart-panel__pair">{displayName}</span>
        <span className="chart-panel__price">{price}</span>
        {badge}
      </div>
      <div className="chart-panel__canvas" ref={canvasRef} />
      <a
        className="chart-panel__attribution"
        href="https://www.tradingview.com/"
        target="_blank"
        rel="noreferrer"
      >
        Charts by TradingView
      </a>
      {children}
      {overlay !== undefined && <div className="chart-panel__overlay">{overlay}</div>}
    </div>
  );
}
