import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type PaymentRequest = Schemas['PaymentRequest'];
import { api } from '../../../lib/api-client';

/** Newest first, every status: the table shows decided rows too, with buttons only on pending ones. */
export function getDeposits(): Promise<PaymentRequest[]> {
  return api.get('/api/admin/deposits');
}

export function depositsQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'deposits'], queryFn: getDeposits });
}

export function useDeposits() {
  return useQuery(depositsQueryOptions());
}
