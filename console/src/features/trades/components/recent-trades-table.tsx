import { formatMoney, formatPrice } from '../../../lib/format';
import type { Trade } from '../api/get-trade-history';
import { VoidReason, type TradeActions } from './trade-history';

function formatPnl(pnl: number | null): string {
  if (pnl === null) return '—';
  return `${pnl > 0 ? '+' : ''}${formatMoney(pnl)}`;
}

/**
 * The dashboard's Recent Trades table; any status other than won gets the red badge. The page's
 * actions, when given, take a last column after the spec's six.
 */
export function RecentTradesTable({
  trades,
  renderActions,
}: {
  trades: Trade[];
  renderActions?: TradeActions;
}) {
  return (
    <section className="card">
      <h2 className="card-title">Recent Trades</h2>
      {trades.length === 0 ? (
        <p className="muted">No trades yet. Start trading!</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>Pair</th>
                <th>Direction</th>
                <th>Amount</th>
                <th>Entry</th>
                <th>Status</th>
                <th>P&amp;L</th>
                {renderActions && (
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {trades.map((trade) => (
                <tr key={trade.id}>
                  <td>{trade.pair}</td>
                  <td>
                    <span className={trade.direction === 'UP' ? 'text-up' : 'text-down'}>
                      {trade.direction}
                    </span>
                  </td>
                  <td>${formatMoney(trade.amount)}</td>
                  <td>{formatPrice(trade.pair, trade.entry_price)}</td>
                  <td>
                    <span className={trade.status === 'won' ? 'badge badge--up' : 'badge badge--down'}>
                      {trade.status}
                    </span>
                    <VoidReason trade={trade} />
                  </td>
                  <td className={trade.pnl !== null && trade.pnl > 0 ? 'text-up' : 'text-down'}>
                    {formatPnl(trade.pnl)}
                  </td>
                  {renderActions && <td>{renderActions(trade)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
