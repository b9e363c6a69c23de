import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';

/** What `GET /api/trades/active` returns per trade: a pending trade without its outcome fields. */
export type ActiveTrade = Schemas['ActiveTrade'];

export const ACTIVE_TRADES_POLL_MS = 1000;

export function getActiveTrades(): Promise<ActiveTrade[]> {
  return api.get('/api/trades/active');
}

export function activeTradesQueryOptions() {
  return queryOptions({ queryKey: ['trades', 'active'], queryFn: getActiveTrades });
}

export function useActiveTrades(enabled: boolean) {
  return useQuery({ ...activeTradesQueryOptions(), enabled, refetchInterval: ACTIVE_TRADES_POLL_MS });
}
