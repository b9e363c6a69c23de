import { useId } from 'react';
import { formatCountdown, formatMoney, formatPrice } from '../../../lib/format';
import type { ActiveTrade } from '../api/get-active-trades';
import type { PaneFrame } from './chart-pane-frame';
import type { TradeHoverHandlers } from './chart-trade-hover';
import { entryClock, expiryClock } from './chart-trade-math';

/** The box lists this many trades and counts the rest. */
export const BOX_TRADES_MAX = 2;

interface Props {
  /** The active trades on every pair, soonest expiry first. */
  trades: readonly ActiveTrade[];
  /** The chart's pair: rows of other pairs name theirs. */
  pair: string;
  now: number;
  hover: TradeHoverHandlers;
  /** The price pane, when measured: the box sits in its bottom-left corner. */
  frame: PaneFrame | null;
}

const INSET_PX = 6;

function BoxRow({ trade, pair, now, hover }: Omit<Props, 'trades' | 'frame'> & { trade: ActiveTrade }) {
  const up = trade.direction === 'UP';
  return (
    <li
      className="chart-active-trades__row"
      tabIndex={0}
      aria-describedby={hover.describedBy(trade.id)}
      onMouseEnter={(event) => hover.enter(trade.id, event.currentTarget)}
      onMouseLeave={() => hover.leave(trade.id)}
      onFocus={(event) => hover.enter(trade.id, event.currentTarget)}
      onBlur={() => hover.leave(trade.id)}
    >
      <div className="chart-active-trades__head">
        <span className={up ? 'text-up' : 'text-down'}>
          {trade.direction} ${formatMoney(trade.amount)}
        </span>
        {trade.pair !== pair && <span className="muted">{trade.pair}</span>}
        <span className="chart-active-trades__left">{formatCountdown(trade.expiry_ts, now)}</span>
      </div>
      <div className="muted">
        Entry {formatPrice(trade.pair, trade.entry_price)} at {entryClock(trade)}
      </div>
      <div className="muted">Expiry {expiryClock(trade)}</div>
    </li>
  );
}

/** The bottom-left box: the first two active trades in detail, and how many more there are. */
export function ChartActiveTradesBox({ trades, pair, now, hover, frame }: Props) {
  const titleId = useId();
  if (trades.length === 0) return null;
  const more = trades.length - BOX_TRADES_MAX;
  // The box hangs up from the pane's bottom edge (see `.chart-active-trades`).
  const place = frame ? { top: frame.top + frame.height - INSET_PX, left: frame.left + INSET_PX } : undefined;
  return (
    <section className="chart-active-trades" aria-labelledby={titleId} style={place}>
      <h4 id={titleId} className="chart-active-trades__title">
        Active Trades
      </h4>
      <ul className="chart-active-trades__list">
        {trades.slice(0, BOX_TRADES_MAX).map((trade) => (
          <BoxRow key={trade.id} trade={trade} pair={pair} now={now} hover={hover} />
        ))}
      </ul>
      {more > 0 && <div className="chart-active-trades__more muted">+{more} more trades</div>}
    </section>
  );
}
