/**
 * What stands in the chart's place while the chart's code (lightweight-charts) is on its way:
 * the panel's frame at its final size, so nothing moves when the chart arrives, with the pair and
 * the chart's own loading text.
 */
export function PriceChartPlaceholder({ pair, displayName }: { pair: string; displayName: string }) {
  return (
    <div className="chart-panel">
      <div className="chart-panel__label">
        <span className="chart-panel__pair">{displayName}</span>
        <span className="chart-panel__price">—</span>
      </div>
      <div className="chart-panel__canvas" />
      <a
        className="chart-panel__attribution"
        href="https://www.tradingview.com/"
        target="_blank"
        rel="noreferrer"
      >
        Charts by TradingView
      </a>
      <div className="chart-panel__overlay">Loading {pair}...</div>
    </div>
  );
}
