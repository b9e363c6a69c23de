import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import {
  nextSecurityActivityCursor,
  SECURITY_ACTIVITY_PAGE_EVENTS,
  type SecurityActivityPage,
} from '../../../lib/security-activity';

/**
 * One page of the signed-in user's security activity, newest first: sign-ins with address and
 * device, bursts of failed sign-ins, two-factor and password changes, sessions ended, and a sign-in
 * token used twice. Without a cursor, the newest page.
 */
export function getSecurityActivity(cursor?: string): Promise<SecurityActivityPage> {
  return api.get('/api/auth/security-activity', {
    query: { limit: SECURITY_ACTIVITY_PAGE_EVENTS, cursor },
  });
}

/** The pages loaded so far, one query; "Load more" adds the next page by the last one's cursor. */
export function securityActivityQueryOptions() {
  return infiniteQueryOptions({
    queryKey: ['auth', 'security-activity'],
    queryFn: ({ pageParam }) => getSecurityActivity(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextSecurityActivityCursor,
  });
}

export function useSecurityActivity() {
  return useInfiniteQuery(securityActivityQueryOptions());
}
