import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import type { DisputeStatus } from '../../../lib/disputes';

export type AdminDisputePage = Schemas['AdminDisputePage'];

/** Disputes per page of the tab: a screenful, with "Load more" for the next one. */
export const ADMIN_DISPUTES_PAGE_SIZE = 20;

/** What the tab filters by: a status, and optionally one trader (their email or user id). */
export interface AdminDisputesFilter {
  readonly status: DisputeStatus;
  readonly trader?: string;
}

/** One page of every trader's disputes matching `filter`, newest first, from `cursor` on. */
export function getAdminDisputes(filter: AdminDisputesFilter, cursor?: string): Promise<AdminDisputePage> {
  return api.get('/api/admin/disputes', {
    query: { status: filter.status, trader: filter.trader, limit: ADMIN_DISPUTES_PAGE_SIZE, cursor },
  });
}

/** The key every dispute list sits under, whatever its filter: a resolution reloads them all. */
export const ADMIN_DISPUTES_QUERY_KEY = ['admin', 'disputes'] as const;

/** The pages loaded so far of one filter; the server's `next_cursor` says whether more follow. */
export function adminDisputesQueryOptions(filter: AdminDisputesFilter) {
  return infiniteQueryOptions({
    queryKey: [...ADMIN_DISPUTES_QUERY_KEY, filter.status, filter.trader ?? ''],
    queryFn: ({ pageParam }) => getAdminDisputes(filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: AdminDisputePage) => page.next_cursor ?? undefined,
  });
}

export function useAdminDisputes(filter: AdminDisputesFilter) {
  return useInfiniteQuery(adminDisputesQueryOptions(filter));
}
