import type { Wallet } from '../api/get-wallet';
import { formatCurrency, type Currency } from './wallet-format';

/** The Real Account and Demo Account cards, in the chosen display currency. */
export function BalanceCards({ wallet, currency }: { wallet: Wallet | undefined; currency: Currency }) {
  return (
    <div className="wallet-grid">
      <section className="card balance-card">
        <h2 className="card-title">Real Account</h2>
        <p className="balance-card__amount" data-testid="real-balance">
          {formatCurrency(wallet?.real_balance ?? 0, currency)}
        </p>
        <p className="muted">Available for trading and withdrawal</p>
      </section>
      <section className="card balance-card">
        <h2 className="card-title">Demo Account</h2>
        <p className="balance-card__amount" data-testid="demo-balance">
          {formatCurrency(wallet?.demo_balance ?? 0, currency)}
        </p>
        <p className="muted">Practice trading with virtual funds</p>
      </section>
    </div>
  );
}
