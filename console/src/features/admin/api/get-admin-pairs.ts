import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type MarketPair = Schemas['MarketPair'];
import { api } from '../../../lib/api-client';

/** Every pair, disabled ones included (the public market list hides nothing but is not the admin's). */
export function getAdminPairs(): Promise<MarketPair[]> {
  return api.get('/api/admin/pairs');
}

export function adminPairsQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'pairs'], queryFn: getAdminPairs });
}

export function useAdminPairs() {
  return useQuery(adminPairsQueryOptions());
}
