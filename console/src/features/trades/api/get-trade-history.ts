import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

export type Trade = Schemas['Trade'];

export const HISTORY_LIMIT = 20;
export const HISTORY_POLL_MS = 3000;

export function getTradeHistory(limit = HISTORY_LIMIT): Promise<Trade[]> {
  return api.get('/api/trades/history', { query: { limit } });
}

export function tradeHistoryQueryOptions(limit = HISTORY_LIMIT) {
  return queryOptions({ queryKey: ['trades', 'history', limit], queryFn: () => getTradeHistory(limit) });
}

export function useTradeHistory(options: { poll: boolean }) {
  return useQuery({ ...tradeHistoryQueryOptions(), refetchInterval: options.poll ? HISTORY_POLL_MS : false });
}
