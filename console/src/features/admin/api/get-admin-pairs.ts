import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MarketPair } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';

/** Every pair, disabled ones included (the public market list hides nothing but is not the admin's). */
export function getAdminPairs(): Promise<MarketPair[]> {
  return api.get<MarketPair[]>('/api/admin/pairs');
}

export function adminPairsQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'pairs'], queryFn: getAdminPairs });
}

export function useAdminPairs() {
  return useQuery(adminPairsQueryOptions());
}
