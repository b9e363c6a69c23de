import { useEffect, useRef } from 'react';
import { LineStyle, type IPriceLine, type Logical } from 'lightweight-charts';
import { TIMEFRAMES } from '@updown/schemas/market';
import { formatMoney } from '../../../lib/format';
import type { ChartView } from '../../../lib/chart-view';
import type { ActiveTrade } from '../api/get-active-trades';
import { chartAlive, type PaneFrame } from './chart-pane-frame';
import { timeToBarIndex, type ExpiryPhase } from './chart-trade-timeline';

/** An active (or just expired) trade on the chart's pair and where its expiry line is in its life. */
export interface ExpiryLine {
  trade: ActiveTrade;
  phase: ExpiryPhase;
}

const LINE_COLORS = { up: '#16c784', down: '#ea3943', flash: '#ffffff', expired: '#8b93a3' };

/**
 * The x of a time in the pane. `timeToCoordinate` only knows the exact times of bars, and an expiry
 * lies between bars or beyond the last one, so the time goes through a fractional bar index.
 * `logicalToCoordinate` answers 0 for a fractional index, so the x is interpolated between the two
 * whole indexes around it (both fine beyond the last bar: the scale is linear).
 */
export function expiryX(
  view: Pick<ChartView, 'chart' | 'bars' | 'timeframe'>,
  timeSec: number,
): number | null {
  const { bars } = view;
  const last = bars.at(-1);
  if (!last) return null;
  const index = timeToBarIndex(
    bars.map((bar) => bar.time as number),
    timeSec,
    TIMEFRAMES[view.timeframe],
  );
  if (index === null) return null;
  const timeScale = view.chart.timeScale();
  // Bars are the main series; other series on the chart could in theory shift its indexes.
  const offset = (timeScale.timeToIndex(last.time, false) ?? bars.length - 1) - (bars.length - 1);
  const logical = index + offset;
  const whole = Math.floor(logical);
  const left = timeScale.logicalToCoordinate(whole as Logical);
  const right = timeScale.logicalToCoordinate((whole + 1) as Logical);
  if (left === null || right === null) return null;
  return left + (logical - whole) * (right - left);
}

function priceLineOptions({ trade, phase }: ExpiryLine) {
  const directionColor = trade.direction === 'UP' ? LINE_COLORS.up : LINE_COLORS.down;
  const color =
    phase === 'live' ? directionColor : phase === 'flash' ? LINE_COLORS.flash : LINE_COLORS.expired;
  return {
    id: trade.id,
    price: trade.entry_price,
    color,
    lineWidth: phase === 'flash' ? 2 : 1,
    lineStyle: LineStyle.Dashed,
    axisLabelVisible: true,
    title: `${trade.direction} $${formatMoney(trade.amount)}`,
  } as const;
}

/** Keeps one entry price line per expiry line on the series, restyled as the expiry passes. */
function useEntryPriceLines(view: ChartView, lines: readonly ExpiryLine[]) {
  const { chart, series } = view;
  const drawn = useRef(new Map<string, { line: IPriceLine; phase: ExpiryPhase }>());

  useEffect(() => {
    const map = drawn.current;
    return () => {
      // When the chart type changes the chart, with its lines, is removed first.
      if (chartAlive(chart)) for (const { line } of map.values()) series.removePriceLine(line);
      map.clear();
    };
  }, [chart, series]);

  useEffect(() => {
    const map = drawn.current;
    const wanted = new Set(lines.map((line) => line.trade.id));
    for (const [id, { line }] of map) {
      if (wanted.has(id)) continue;
      series.removePriceLine(line);
      map.delete(id);
    }
    for (const line of lines) {
      const current = map.get(line.trade.id);
      if (!current)
        map.set(line.trade.id, { line: series.createPriceLine(priceLineOptions(line)), phase: line.phase });
      else if (current.phase !== line.phase) {
        current.line.applyOptions(priceLineOptions(line));
        current.phase = line.phase;
      }
    }
  }, [series, lines]);
}

/**
 * `--ended` stays from the expiry to the removal and carries the 0.3 s flash as a CSS animation, so
 * the flash plays in full even when a busy page renders the expiry late; `--flash` and `--expired`
 * name the phase.
 */
function lineClass(trade: ActiveTrade, phase: ExpiryPhase, labelLeft: boolean): string {
  const direction = trade.direction === 'UP' ? 'up' : 'down';
  const ended = phase === 'live' ? '' : ' chart-expiry-line--ended';
  const label = labelLeft ? ' chart-expiry-line--label-left' : '';
  return `chart-expiry-line chart-expiry-line--${direction} chart-expiry-line--${phase}${ended}${label}`;
}

/** A line closer than this to the price scale carries its label on its left, inside the pane. */
const LABEL_ROOM_PX = 90;
/** Neighbouring lines stack their labels upwards in this many rows, so they do not overlap. */
const LABEL_ROWS = 4;
const LABEL_BOTTOM_PX = 5;
const LABEL_STEP_PX = 18;

/** The lines inside the pane, left to right, each with its x and the row of its label. */
function placeLines(view: ChartView, lines: readonly ExpiryLine[], width: number) {
  return lines
    .map((line) => ({ ...line, x: expiryX(view, line.trade.expiry_ts) }))
    .filter((line): line is ExpiryLine & { x: number } => line.x !== null && line.x >= 0 && line.x <= width)
    .sort((a, b) => a.x - b.x)
    .map((line, index) => ({ ...line, row: index % LABEL_ROWS }));
}

interface Props {
  view: ChartView;
  lines: readonly ExpiryLine[];
  frame: PaneFrame | null;
}

/** A vertical line at each expiry and a price line at each entry; both flash at expiry, then go. */
export function ChartExpiryLines({ view, lines, frame }: Props) {
  useEntryPriceLines(view, lines);
  if (!frame || lines.length === 0) return null;
  return (
    <div
      className="chart-expiry-lines"
      aria-hidden="true"
      style={{ left: frame.left, top: frame.top, width: frame.width, height: frame.height }}
    >
      {placeLines(view, lines, frame.width).map(({ trade, phase, x, row }) => (
        <div
          key={trade.id}
          data-trade-id={trade.id}
          className={lineClass(trade, phase, x > frame.width - LABEL_ROOM_PX)}
          style={{ transform: `translateX(${Math.round(x)}px)` }}
        >
          <span
            className="chart-expiry-line__label"
            style={{ bottom: LABEL_BOTTOM_PX + row * LABEL_STEP_PX }}
          >
            {trade.direction} ${formatMoney(trade.amount)}
          </span>
        </div>
      ))}
    </div>
  );
}
