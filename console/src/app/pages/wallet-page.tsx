import { AppHeader } from '../../components/app-header';
import { IdentityWithdrawNotice } from '../../features/identity/components/identity-withdraw-notice';
import { WalletView } from '../../features/wallet/components/wallet-view';

/** The wallet, with the identity feature's notice on the Withdraw card until the trader is verified. */
export function WalletPage() {
  return (
    <div className="page">
      <AppHeader />
      <main className="page__body">
        <WalletView withdrawNotice={<IdentityWithdrawNotice />} />
      </main>
    </div>
  );
}
