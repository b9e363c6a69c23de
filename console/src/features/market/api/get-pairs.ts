import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MarketPair } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';

export type Pair = MarketPair;

export function getPairs(): Promise<Pair[]> {
  return api.get<Pair[]>('/api/market/pairs', { auth: false });
}

export function pairsQueryOptions() {
  return queryOptions({ queryKey: ['market', 'pairs'], queryFn: getPairs, staleTime: 60_000 });
}

export function usePairs() {
  return useQuery(pairsQueryOptions());
}
