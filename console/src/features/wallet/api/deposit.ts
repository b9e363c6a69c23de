import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WalletAmountBody, WalletCommandResponse } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';
import { invalidateWallet } from './get-wallet';

export function deposit(body: WalletAmountBody): Promise<WalletCommandResponse> {
  return api.post<WalletCommandResponse>('/api/wallet/deposit', body);
}

export function useDeposit() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deposit, onSuccess: () => invalidateWallet(queryClient) });
}
