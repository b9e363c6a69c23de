import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarketPair } from '@updown/schemas/api';
import { apiRequest } from '../../../lib/api-client';
import { adminPairsQueryOptions } from './get-admin-pairs';

export interface UpdatePairInput {
  symbol: string;
  active: boolean;
}

export function updatePair({ symbol, active }: UpdatePairInput): Promise<MarketPair> {
  return apiRequest<MarketPair>(`/api/admin/pairs/${encodeURIComponent(symbol)}`, {
    method: 'PATCH',
    body: { active },
  });
}

export function useUpdatePair() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePair,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPairsQueryOptions().queryKey }),
  });
}
