import { useState, type ReactNode, type Ref } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { parseAmount } from '../../../lib/amount';
import { useDeposit } from '../api/deposit';
import { useWithdraw } from '../api/withdraw';

type AccountType = 'real' | 'demo';

export const DEFAULT_DEPOSIT_AMOUNT = '100';

function AccountChoice({ value, onChange }: { value: AccountType; onChange: (value: AccountType) => void }) {
  return (
    <div className="field">
      <span>Account</span>
      <div className="segmented">
        {(['real', 'demo'] as const).map((type) => (
          <button
            key={type}
            type="button"
            aria-pressed={value === type}
            className={value === type ? 'segment segment--active' : 'segment'}
            onClick={() => onChange(type)}
          >
            {type === 'real' ? 'Real' : 'Demo'}
          </button>
        ))}
      </div>
    </div>
  );
}

export interface PaymentCardsProps {
  depositAmountRef?: Ref<HTMLInputElement>;
  /**
   * Shown at the top of the Withdraw card: what else a withdrawal waits for (the page passes the
   * identity verification notice). The button stays usable; the server's refusal is toasted.
   */
  withdrawNotice?: ReactNode;
}

/** The Deposit and Withdraw cards; both act on the same account choice. */
export function PaymentCards({ depositAmountRef, withdrawNotice }: PaymentCardsProps) {
  const [accountType, setAccountType] = useState<AccountType>('real');
  const [depositInput, setDepositInput] = useState(DEFAULT_DEPOSIT_AMOUNT);
  const [withdrawInput, setWithdrawInput] = useState('');
  const depositMutation = useDeposit();
  const withdrawMutation = useWithdraw();

  const onDeposit = async () => {
    const amount = parseAmount(depositInput);
    if (amount === null) {
      toast.error('Please enter a valid amount');
      return;
    }
    try {
      await depositMutation.mutateAsync({ amount, account_type: accountType });
      toast.success('Deposit successful!');
      setDepositInput('');
    } catch (error) {
      console.error('Deposit failed', error);
      toast.error(errorDetail(error, 'Deposit failed'));
    }
  };

  const onWithdraw = async () => {
    const amount = parseAmount(withdrawInput);
    if (amount === null) {
      toast.error('Please enter a valid amount');
      return;
    }
    try {
      await withdrawMutation.mutateAsync({ amount, account_type: accountType });
      toast.success('Withdrawal request submitted');
      setWithdrawInput('');
    } catch (error) {
      console.error('Withdrawal failed', error);
      toast.error(errorDetail(error, 'Withdrawal failed'));
    }
  };

  return (
    <div className="wallet-grid">
      <section className="card form" aria-label="Deposit">
        <h2 className="card-title">Deposit</h2>
        <AccountChoice value={accountType} onChange={setAccountType} />
        <label className="field">
          <span>Amount ($)</span>
          <input
            ref={depositAmountRef}
            type="number"
            min="0"
            step="any"
            inputMode="decimal"
            value={depositInput}
            onChange={(event) => setDepositInput(event.target.value)}
          />
        </label>
        <button
          type="button"
          className="button button--primary"
          disabled={depositMutation.isPending}
          onClick={() => void onDeposit()}
        >
          Deposit (Mock)
        </button>
      </section>
      <section className="card form" aria-label="Withdraw">
        <h2 className="card-title">Withdraw</h2>
        {withdrawNotice}
        <AccountChoice value={accountType} onChange={setAccountType} />
        <label className="field">
          <span>Amount</span>
          <input
            type="number"
            min="0"
            step="any"
            inputMode="decimal"
            value={withdrawInput}
            onChange={(event) => setWithdrawInput(event.target.value)}
          />
        </label>
        <button
          type="button"
          className="button button--outline"
          disabled={withdrawMutation.isPending}
          onClick={() => void onWithdraw()}
        >
          Request Withdrawal
        </button>
        <p className="muted">Withdrawals require admin approval</p>
      </section>
    </div>
  );
}
