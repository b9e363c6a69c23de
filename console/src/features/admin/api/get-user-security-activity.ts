import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import {
  nextSecurityActivityCursor,
  SECURITY_ACTIVITY_PAGE_EVENTS,
  type SecurityActivityPage,
} from '../../../lib/security-activity';

/** One page of a user's security activity, newest first, as the user sees it on their dashboard. */
export function getUserSecurityActivity(userId: string, cursor?: string): Promise<SecurityActivityPage> {
  return api.get('/api/admin/users/{id}/security-activity', {
    params: { id: userId },
    query: { limit: SECURITY_ACTIVITY_PAGE_EVENTS, cursor },
  });
}

/**
 * The pages loaded so far of one user's activity. Its key is not under the users list's, so
 * reloading the list (after a deposit, a limit) leaves an open activity panel alone.
 */
export function userSecurityActivityQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: ['admin', 'security-activity', userId],
    queryFn: ({ pageParam }) => getUserSecurityActivity(userId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextSecurityActivityCursor,
  });
}

export function useUserSecurityActivity(userId: string) {
  return useInfiniteQuery(userSecurityActivityQueryOptions(userId));
}
