import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';
import { invalidateWallet } from './get-wallet';

export function deposit(body: Schemas['DepositBody']): Promise<Schemas['WalletCommandResponse']> {
  return api.post('/api/wallet/deposit', body);
}

export function useDeposit() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deposit, onSuccess: () => invalidateWallet(queryClient) });
}
