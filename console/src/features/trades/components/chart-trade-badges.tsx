import { formatCountdown, formatMoney } from '../../../lib/format';
import type { ActiveTrade } from '../api/get-active-trades';
import type { PaneFrame } from './chart-pane-frame';
import type { TradeHoverHandlers } from './chart-trade-hover';

interface Props {
  /** The active trades on every pair, soonest expiry first. */
  trades: readonly ActiveTrade[];
  /** The chart's pair: badges of other pairs name theirs. */
  pair: string;
  now: number;
  hover: TradeHoverHandlers;
  /** The price pane, when measured: the badges sit along its top edge. */
  frame: PaneFrame | null;
}

const INSET_PX = 6;

/** One countdown badge per active trade, above the chart. */
export function ChartTradeBadges({ trades, pair, now, hover, frame }: Props) {
  if (trades.length === 0) return null;
  const place = frame
    ? { top: frame.top + INSET_PX, left: frame.left + INSET_PX, maxWidth: frame.width - 2 * INSET_PX }
    : undefined;
  return (
    <div className="chart-trade-badges" role="group" aria-label="Trade countdowns" style={place}>
      {trades.map((trade) => (
        <button
          key={trade.id}
          type="button"
          className={`chart-trade-badge chart-trade-badge--${trade.direction === 'UP' ? 'up' : 'down'}`}
          aria-describedby={hover.describedBy(trade.id)}
          onMouseEnter={(event) => hover.enter(trade.id, event.currentTarget)}
          onMouseLeave={() => hover.leave(trade.id)}
          onFocus={(event) => hover.enter(trade.id, event.currentTarget)}
          onBlur={() => hover.leave(trade.id)}
        >
          {trade.pair !== pair && <span className="chart-trade-badge__pair">{trade.pair}</span>}
          <span className="chart-trade-badge__direction">{trade.direction}</span>
          <span>${formatMoney(trade.amount)}</span>
          <span className="chart-trade-badge__countdown">{formatCountdown(trade.expiry_ts, now)}</span>
        </button>
      ))}
    </div>
  );
}
