import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { VerificationDetail, VerificationSummary, VerificationsFilter } from '../../../lib/identity';

/** Pending submissions oldest first (the queue), or decided ones newest first: the server's order. */
export function getVerifications(status: VerificationsFilter): Promise<VerificationSummary[]> {
  return api.get('/api/admin/verifications', { query: { status } });
}

/** One submission with its documents and every earlier decision on the trader. */
export function getVerification(id: string): Promise<VerificationDetail> {
  return api.get('/api/admin/verifications/{id}', { params: { id } });
}

/**
 * One list per status filter. Without a filter the key is the prefix of every list's key and of
 * every submission's, so a decision reloads all of them through it.
 */
export function verificationsQueryOptions(status?: VerificationsFilter) {
  return queryOptions({
    queryKey: status === undefined ? ['admin', 'verifications'] : ['admin', 'verifications', status],
    queryFn: () => getVerifications(status ?? 'pending'),
  });
}

export function verificationQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['admin', 'verifications', 'detail', id],
    queryFn: () => getVerification(id),
  });
}

/** Switching the filter keeps the rows on screen until the other list arrives. */
export function useVerifications(status: VerificationsFilter) {
  return useQuery({ ...verificationsQueryOptions(status), placeholderData: (previous) => previous });
}

export function useVerification(id: string) {
  return useQuery(verificationQueryOptions(id));
}
