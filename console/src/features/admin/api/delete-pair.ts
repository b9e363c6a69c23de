import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { adminPairsQueryOptions } from './get-admin-pairs';

/** The symbol travels URL-encoded: symbols may hold dots and dashes, and a path is no place to trust. */
export function deletePair(symbol: string): Promise<Schemas['StatusOk']> {
  return api.delete('/api/admin/pairs/{symbol}', { params: { symbol } });
}

export function useDeletePair() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePair,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPairsQueryOptions().queryKey }),
  });
}
