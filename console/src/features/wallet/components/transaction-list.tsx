import type { WalletTransaction } from '../api/get-transactions';
import { formatDateTime, formatSignedMoney, transactionTypeLabel } from './wallet-format';

/** The dashboard's compact Recent Transactions list. */
export function TransactionList({ transactions }: { transactions: WalletTransaction[] }) {
  return (
    <section className="card">
      <h2 className="card-title">Recent Transactions</h2>
      {transactions.length === 0 ? (
        <p className="muted">No transactions yet</p>
      ) : (
        <ul className="transaction-list">
          {transactions.map((transaction) => (
            <li key={transaction.id} className="row">
              <div>
                <div className="capitalize">{transactionTypeLabel(transaction.type)}</div>
                <div className="muted small">{formatDateTime(transaction.created_at)}</div>
              </div>
              <strong className={transaction.amount >= 0 ? 'text-up' : 'text-down'}>
                {formatSignedMoney(transaction.amount)}
              </strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
