import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import type { ResponseOf } from '../../../lib/api-schema';
import type { IdentityDocument, IdentityDocumentKind } from '../../../lib/identity';
import { identityQueryOptions } from './get-identity';

export interface UploadDocumentInput {
  kind: IdentityDocumentKind;
  file: File;
}

/**
 * One document as `multipart/form-data`: the `kind` field first (the server reads it before the
 * file streams in, to refuse a bad kind without storing anything), then the `file`. The typed
 * `api.post` sends JSON only, so this one goes through `apiRequest` with the answer's type.
 */
export function uploadIdentityDocument({ kind, file }: UploadDocumentInput): Promise<IdentityDocument> {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', file, file.name);
  return apiRequest<ResponseOf<'/api/identity/documents', 'post'>>('/api/identity/documents', {
    method: 'POST',
    body: form,
  });
}

/**
 * Settles once the verification has reloaded, so the card lists the new file and what is missing;
 * a refusal reloads it too (a 409 means it was submitted meanwhile, from another tab).
 */
export function useUploadIdentityDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadIdentityDocument,
    onSettled: () => queryClient.invalidateQueries({ queryKey: identityQueryOptions().queryKey }),
  });
}
