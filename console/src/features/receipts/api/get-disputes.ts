import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Dispute } from '../../../lib/disputes';

/** How often a signed-in console asks whether an admin has resolved one of the caller's disputes. */
export const DISPUTES_POLL_MS = 15_000;

/** The caller's disputes, newest first. */
export function getDisputes(): Promise<Dispute[]> {
  return api.get('/api/disputes');
}

export function disputesQueryOptions() {
  return queryOptions({ queryKey: ['disputes'], queryFn: getDisputes });
}

/**
 * One poller (the notifications, mounted while signed in) is enough: the trade history and the
 * receipt read the same cached list without a timer of their own.
 */
export function useDisputes(options: { poll?: boolean; enabled?: boolean } = {}) {
  return useQuery({
    ...disputesQueryOptions(),
    enabled: options.enabled ?? true,
    refetchInterval: options.poll ? DISPUTES_POLL_MS : false,
  });
}
