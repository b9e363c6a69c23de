import { TIMEFRAME_NAMES, type Timeframe } from '@updown/schemas/market';

export type ChartType = 'candlestick' | 'line';

interface Props {
  timeframe: Timeframe;
  onTimeframe(timeframe: Timeframe): void;
  chartType: ChartType;
  onChartType(chartType: ChartType): void;
  /** Opens the indicator settings panel. */
  onIndicators(): void;
}

export function TimeframeToolbar({ timeframe, onTimeframe, chartType, onChartType, onIndicators }: Props) {
  return (
    <div className="toolbar">
      <div className="tabs" role="tablist" aria-label="Timeframe">
        {TIMEFRAME_NAMES.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={name === timeframe}
            className={name === timeframe ? 'tab tab--active' : 'tab'}
            onClick={() => onTimeframe(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div className="tabs" aria-label="Chart type">
        {(
          [
            ['candlestick', 'Candlestick'],
            ['line', 'Line'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={value === chartType}
            className={value === chartType ? 'tab tab--active' : 'tab'}
            onClick={() => onChartType(value)}
          >
            {label}
          </button>
        ))}
        <button type="button" className="tab" aria-haspopup="dialog" onClick={onIndicators}>
          Indicators
        </button>
      </div>
    </div>
  );
}
