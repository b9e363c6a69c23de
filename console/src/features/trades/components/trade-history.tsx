import { useEffect, type ReactNode } from 'react';
import { formatMoney, formatPrice } from '../../../lib/format';
import { useTradeHistory, type Trade } from '../api/get-trade-history';
import { voidReasonText } from './void-reason';

/**
 * What the page adds to each trade of the history and the dashboard's table (its receipt and
 * dispute status): another feature's controls, composed in by the page rather than imported here.
 */
export type TradeActions = (trade: Trade) => ReactNode;

function statusClass(status: string): string {
  if (status === 'won') return 'badge badge--up';
  if (status === 'pending') return 'badge badge--neutral';
  return 'badge badge--down';
}

/** Why a void trade's stake came back, beside its status; nothing for any other trade. */
export function VoidReason({ trade }: { trade: Trade }) {
  const text = voidReasonText(trade);
  if (text === null) return null;
  // The space keeps the status and the reason apart when read as one line (a screen reader).
  return (
    <>
      {' '}
      <span className="muted small trade-void-reason">{text}</span>
    </>
  );
}

/** The History tab: the last 20 trades, refreshed every 3 s while the tab is open. */
export function TradeHistory({ renderActions }: { renderActions?: TradeActions }) {
  const history = useTradeHistory({ poll: true });
  useEffect(() => {
    if (history.error) console.error('Failed to load trade history', history.error);
  }, [history.error]);
  const trades = history.data ?? [];

  return (
    <div className="trade-history">
      <h3>Recent Trades</h3>
      {trades.length === 0 ? (
        <p className="muted">No trade history yet</p>
      ) : (
        <ul className="trade-history__list">
          {trades.map((trade) => (
            <li key={trade.id} className="trade-history__item">
              <div className="row">
                <strong>{trade.pair}</strong>
                <span className={trade.direction === 'UP' ? 'badge badge--up' : 'badge badge--down'}>
                  {trade.direction}
                </span>
                <span className={statusClass(trade.status)}>{trade.status}</span>
                <VoidReason trade={trade} />
              </div>
              <div className="row muted">
                <span>${formatMoney(trade.amount)}</span>
                <span>@ {formatPrice(trade.pair, trade.entry_price)}</span>
                {trade.pnl !== null && (
                  <span className={trade.pnl > 0 ? 'text-up' : 'text-down'}>
                    {trade.pnl > 0 ? '+' : ''}
                    {formatMoney(trade.pnl)}
                  </span>
                )}
              </div>
              {renderActions && <div className="row trade-history__actions">{renderActions(trade)}</div>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
