import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';
import { invalidateWallet } from './get-wallet';

export function withdraw(body: Schemas['WithdrawBody']): Promise<Schemas['WalletCommandResponse']> {
  return api.post('/api/wallet/withdraw', body);
}

export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: withdraw, onSuccess: () => invalidateWallet(queryClient) });
}
