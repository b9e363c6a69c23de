import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { IdentityResponse, IdentitySubmitRequest } from '../../../lib/identity';
import { identityQueryOptions } from './get-identity';

/** Sends the uploaded documents with the legal name and date of birth (`YYYY-MM-DD`) for review. */
export function submitIdentity(body: IdentitySubmitRequest): Promise<IdentityResponse> {
  return api.post('/api/identity/submit', body);
}

/**
 * The answer is the verification, now pending: it replaces the cached one at once. A refusal
 * reloads it too (another tab may have submitted, or an upload may have been replaced).
 */
export function useSubmitIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitIdentity,
    onSuccess: (identity) => queryClient.setQueryData(identityQueryOptions().queryKey, identity),
    onError: () => queryClient.invalidateQueries({ queryKey: identityQueryOptions().queryKey }),
  });
}
