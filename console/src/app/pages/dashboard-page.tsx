import { useEffect } from 'react';
import { AppHeader } from '../../components/app-header';
import { formatMoney } from '../../lib/format';
import { useSession } from '../../lib/session/session-context';
import { SecurityCard } from '../../features/auth/components/security-card';
import { VerificationCard } from '../../features/identity/components/verification-card';
import { TradeReceiptActions } from '../../features/receipts/components/trade-receipt-actions';
import { useTradeHistory } from '../../features/trades/api/get-trade-history';
import { RecentTradesTable } from '../../features/trades/components/recent-trades-table';
import type { TradeActions } from '../../features/trades/components/trade-history';
import { formatWinRate, tradeStats } from '../../features/trades/components/trade-stats';
import { DASHBOARD_TRANSACTIONS_LIMIT, useTransactions } from '../../features/wallet/api/get-transactions';
import { useWallet } from '../../features/wallet/api/get-wallet';
import { TransactionList } from '../../features/wallet/components/transaction-list';

/** Each settled trade of Recent Trades gets its receipt and dispute status, in a last column. */
const receiptActions: TradeActions = (trade) => <TradeReceiptActions trade={trade} />;

/**
 * Balances, trade statistics, recent trades and recent transactions, then identity verification
 * and two-factor security; load failures are only logged.
 */
export function DashboardPage() {
  const { user } = useSession();
  const wallet = useWallet();
  const history = useTradeHistory({ poll: false });
  const transactions = useTransactions(DASHBOARD_TRANSACTIONS_LIMIT);

  const error = wallet.error ?? history.error ?? transactions.error;
  useEffect(() => {
    if (error) console.error('Failed to load dashboard data', error);
  }, [error]);

  const trades = history.data ?? [];
  const stats = tradeStats(trades);

  return (
    <div className="page">
      <AppHeader />
      <main className="page__body dashboard">
        <div>
          <h1>Welcome back, {user?.name}!</h1>
          <p className="muted">Here&apos;s your trading overview</p>
        </div>
        <div className="stat-grid">
          <section className="card stat-card">
            <span className="muted">Real Balance</span>
            <strong data-testid="real-balance">${formatMoney(wallet.data?.real_balance ?? 0)}</strong>
          </section>
          <section className="card stat-card">
            <span className="muted">Demo Balance</span>
            <strong data-testid="demo-balance">${formatMoney(wallet.data?.demo_balance ?? 0)}</strong>
          </section>
          <section className="card stat-card">
            <span className="muted">Total Trades</span>
            <strong data-testid="total-trades">{stats.total}</strong>
          </section>
          <section className="card stat-card">
            <span className="muted">Win Rate</span>
            <strong data-testid="win-rate">{formatWinRate(stats.winRate)}</strong>
            <span className="muted small">
              {stats.wins} W / {stats.losses} L
            </span>
          </section>
        </div>
        <div className="dashboard__lists">
          <RecentTradesTable trades={trades} renderActions={receiptActions} />
          <TransactionList transactions={transactions.data ?? []} />
        </div>
        <VerificationCard />
        <SecurityCard />
      </main>
    </div>
  );
}
