import { useQueryClient } from '@tanstack/react-query';
import { AdminPanel } from '../../features/admin/components/admin-panel';
import { pairsQueryOptions } from '../../features/market/api/get-pairs';

/**
 * The admin panel. Pair and payout changes also reload the traders' pair list, which belongs to
 * the market feature; the page joins the two so neither feature imports the other.
 */
export function AdminPage() {
  const queryClient = useQueryClient();
  const onMarketChanged = () => {
    void queryClient.invalidateQueries({ queryKey: pairsQueryOptions().queryKey });
  };
  return <AdminPanel onMarketChanged={onMarketChanged} />;
}
