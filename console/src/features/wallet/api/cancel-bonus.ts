import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { invalidateWallet } from './get-wallet';

export function cancelBonus(): Promise<Schemas['Wallet']> {
  return api.post('/api/wallet/cancel-bonus');
}

export function useCancelBonus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelBonus, onSuccess: () => invalidateWallet(queryClient) });
}
