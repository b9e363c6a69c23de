import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiBlob } from '../../../lib/api-client';
import { identityDocumentPath } from '../../../lib/identity';

/** A trader's uploaded document, as its raw bytes (its content type is the blob's). */
export function getIdentityDocument(id: string, signal?: AbortSignal): Promise<Blob> {
  return apiBlob(identityDocumentPath(id), { signal });
}

/** A document never changes under its id; up to 10 MB each, so it leaves the cache soon after use. */
export function identityDocumentQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['admin', 'identity-documents', id],
    queryFn: ({ signal }) => getIdentityDocument(id, signal),
    staleTime: Infinity,
    gcTime: 60_000,
  });
}

export function useIdentityDocument(id: string) {
  return useQuery(identityDocumentQueryOptions(id));
}
