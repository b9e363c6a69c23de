import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type PaymentRequest = Schemas['PaymentRequest'];
import { api } from '../../../lib/api-client';

/** Newest first, every status: the table shows decided rows too, with buttons only on pending ones. */
export function getWithdrawals(): Promise<PaymentRequest[]> {
  return api.get('/api/admin/withdrawals');
}

export function withdrawalsQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'withdrawals'], queryFn: getWithdrawals });
}

export function useWithdrawals() {
  return useQuery(withdrawalsQueryOptions());
}
