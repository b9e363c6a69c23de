import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateWallet } from './get-wallet';

export function cancelBonus(): Promise<unknown> {
  return api.post<unknown>('/api/wallet/cancel-bonus');
}

export function useCancelBonus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelBonus, onSuccess: () => invalidateWallet(queryClient) });
}
