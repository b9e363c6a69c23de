import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { adminPairsQueryOptions } from './get-admin-pairs';

export interface UpdatePairInput {
  symbol: string;
  active: boolean;
}

export function updatePair({ symbol, active }: UpdatePairInput): Promise<Schemas['MarketPair']> {
  return api.patch('/api/admin/pairs/{symbol}', { active }, { params: { symbol } });
}

export function useUpdatePair() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePair,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPairsQueryOptions().queryKey }),
  });
}
