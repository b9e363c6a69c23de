import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

export type Pair = Schemas['MarketPair'];

/**
 * A pair's feed pauses after 5 s without a tick, so the list is asked for again every 3 s: a pause
 * (or its end) shows on the pair buttons and the trade panel within a few seconds. React Query
 * stops the timer while the page is in a background tab.
 */
export const PAIRS_POLL_MS = 3000;

export function getPairs(): Promise<Pair[]> {
  return api.get('/api/market/pairs', { auth: false });
}

export function pairsQueryOptions() {
  return queryOptions({
    queryKey: ['market', 'pairs'],
    queryFn: getPairs,
    // As old as a poll may leave it: a page mounted later asks again rather than show an old status.
    staleTime: PAIRS_POLL_MS,
    refetchInterval: PAIRS_POLL_MS,
  });
}

export function usePairs() {
  return useQuery(pairsQueryOptions());
}
