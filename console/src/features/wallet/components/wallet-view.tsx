import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { useTransactions, WALLET_TRANSACTIONS_LIMIT } from '../api/get-transactions';
import { useWallet } from '../api/get-wallet';
import { BalanceCards } from './balance-cards';
import { BonusBanner } from './bonus-banner';
import { BonusCard } from './bonus-card';
import { PaymentCards } from './payment-cards';
import { TransactionTable } from './transaction-table';
import { CURRENCIES, type Currency } from './wallet-format';

/**
 * The wallet page's content: balances, bonus, deposit/withdraw and the last 50 transactions.
 * `withdrawNotice` goes on the Withdraw card (the page's identity verification notice).
 */
export function WalletView({ withdrawNotice }: { withdrawNotice?: ReactNode } = {}) {
  const wallet = useWallet();
  const transactions = useTransactions(WALLET_TRANSACTIONS_LIMIT);
  const [currency, setCurrency] = useState<Currency>('USD');
  const depositAmountRef = useRef<HTMLInputElement>(null);

  const failed = wallet.isError || transactions.isError;
  useEffect(() => {
    if (failed) toast.error('Failed to load wallet data');
  }, [failed]);
  useEffect(() => {
    if (wallet.error) console.error('Failed to load wallet', wallet.error);
  }, [wallet.error]);
  useEffect(() => {
    if (transactions.error) console.error('Failed to load transactions', transactions.error);
  }, [transactions.error]);

  const data = wallet.data;
  const bonusActive = data?.bonus_status === 'active';
  const showBanner = data !== undefined && !data.first_deposit_bonus_used && !bonusActive;
  // The bonus card or banner sits above the forms, and neither is known before the wallet is:
  // the rest of the page waits for it, so that the forms appear in place instead of jumping down.
  const walletSettled = data !== undefined || wallet.isError;

  return (
    <div className="wallet">
      <div className="row">
        <h1>Wallet</h1>
        <div className="segmented" role="group" aria-label="Currency">
          {(Object.keys(CURRENCIES) as Currency[]).map((code) => (
            <button
              key={code}
              type="button"
              aria-pressed={currency === code}
              className={currency === code ? 'segment segment--active' : 'segment'}
              onClick={() => setCurrency(code)}
            >
              {code}
            </button>
          ))}
        </div>
      </div>
      <BalanceCards wallet={data} currency={currency} />
      {walletSettled && (
        <>
          {data && bonusActive && <BonusCard wallet={data} />}
          {showBanner && <BonusBanner onClaim={() => depositAmountRef.current?.focus()} />}
          <PaymentCards depositAmountRef={depositAmountRef} withdrawNotice={withdrawNotice} />
          <TransactionTable transactions={transactions.data ?? []} />
        </>
      )}
    </div>
  );
}
