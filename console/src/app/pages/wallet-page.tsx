import { SimplePage } from '../../components/ui/simple-page';

export function WalletPage() {
  return <SimplePage title="Wallet" />;
}
