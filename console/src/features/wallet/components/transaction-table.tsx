import { formatMoney } from '../../../lib/format';
import type { WalletTransaction } from '../api/get-transactions';
import { formatDateTime, formatSignedMoney, transactionTypeLabel } from './wallet-format';

/** The wallet page's Transaction History table. */
export function TransactionTable({ transactions }: { transactions: WalletTransaction[] }) {
  return (
    <section className="card">
      <h2 className="card-title">Transaction History</h2>
      {transactions.length === 0 ? (
        <p className="muted">No transactions yet</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>Type</th>
                <th>Amount</th>
                <th>Balance After</th>
                <th>Date</th>
              </tr>
            </thead>
            <tbody>
              {transactions.map((transaction) => (
                <tr key={transaction.id}>
                  <td className="capitalize">{transactionTypeLabel(transaction.type)}</td>
                  <td className={transaction.amount >= 0 ? 'text-up' : 'text-down'}>
                    {formatSignedMoney(transaction.amount)}
                  </td>
                  <td>${formatMoney(transaction.balance_after)}</td>
                  <td>{formatDateTime(transaction.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
