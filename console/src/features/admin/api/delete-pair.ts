import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminPairsQueryOptions } from './get-admin-pairs';

/** The symbol travels URL-encoded: symbols may hold dots and dashes, and a path is no place to trust. */
export function deletePair(symbol: string): Promise<{ status: 'ok' }> {
  return apiRequest<{ status: 'ok' }>(`/api/admin/pairs/${encodeURIComponent(symbol)}`, {
    method: 'DELETE',
  });
}

export function useDeletePair() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePair,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPairsQueryOptions().queryKey }),
  });
}
