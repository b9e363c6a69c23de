import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AdminDispute, DisputeStatus } from '../../../lib/disputes';

/** Every trader's disputes in one status, with the replay each was filed with. */
export function getAdminDisputes(status: DisputeStatus): Promise<AdminDispute[]> {
  return api.get('/api/admin/disputes', { query: { status } });
}

export function adminDisputesQueryOptions(status: DisputeStatus) {
  return queryOptions({
    queryKey: ['admin', 'disputes', status],
    queryFn: () => getAdminDisputes(status),
  });
}

export function useAdminDisputes(status: DisputeStatus) {
  return useQuery(adminDisputesQueryOptions(status));
}
