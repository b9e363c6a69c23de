import { AppHeader } from '../../components/app-header';
import { WalletView } from '../../features/wallet/components/wallet-view';

export function WalletPage() {
  return (
    <div className="page">
      <AppHeader />
      <main className="page__body">
        <WalletView />
      </main>
    </div>
  );
}
