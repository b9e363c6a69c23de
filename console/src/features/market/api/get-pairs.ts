import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

export type Pair = Schemas['MarketPair'];

export function getPairs(): Promise<Pair[]> {
  return api.get('/api/market/pairs', { auth: false });
}

export function pairsQueryOptions() {
  return queryOptions({ queryKey: ['market', 'pairs'], queryFn: getPairs, staleTime: 60_000 });
}

export function usePairs() {
  return useQuery(pairsQueryOptions());
}
