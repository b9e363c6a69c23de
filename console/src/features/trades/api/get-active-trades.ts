import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Trade } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';

/** What `GET /api/trades/active` returns per trade: a pending trade without its outcome fields. */
export type ActiveTrade = Pick<
  Trade,
  | 'id'
  | 'pair'
  | 'direction'
  | 'amount'
  | 'entry_price'
  | 'expiry_ts'
  | 'payout_pct'
  | 'account_type'
  | 'created_at'
> & { status: 'pending' };

export const ACTIVE_TRADES_POLL_MS = 1000;

export function getActiveTrades(): Promise<ActiveTrade[]> {
  return api.get<ActiveTrade[]>('/api/trades/active');
}

export function activeTradesQueryOptions() {
  return queryOptions({ queryKey: ['trades', 'active'], queryFn: getActiveTrades });
}

export function useActiveTrades(enabled: boolean) {
  return useQuery({ ...activeTradesQueryOptions(), enabled, refetchInterval: ACTIVE_TRADES_POLL_MS });
}
