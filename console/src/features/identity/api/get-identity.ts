import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { IdentityResponse } from '../../../lib/identity';

/** The trader's own verification: its status, what is missing and the documents uploaded. */
export function getIdentity(): Promise<IdentityResponse> {
  return api.get('/api/identity');
}

export function identityQueryOptions() {
  return queryOptions({ queryKey: ['identity'], queryFn: getIdentity });
}

export function useIdentity() {
  return useQuery(identityQueryOptions());
}
