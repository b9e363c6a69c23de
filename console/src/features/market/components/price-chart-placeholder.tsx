import { ChartPanelFrame } from './chart-panel-frame';

/**
 * What stands in the chart's place while the chart's code (lightweight-charts) is on its way:
 * the panel's frame at its final size, with the pair and the chart's own loading text.
 */
export function PriceChartPlaceholder({ pair, displayName }: { pair: string; displayName: string }) {
  return <ChartPanelFrame displayName={displayName} price="—" overlay={`Loading ${pair}...`} />;
}
