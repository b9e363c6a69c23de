import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WalletAmountBody, WalletCommandResponse } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';
import { invalidateWallet } from './get-wallet';

export function withdraw(body: WalletAmountBody): Promise<WalletCommandResponse> {
  return api.post<WalletCommandResponse>('/api/wallet/withdraw', body);
}

export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: withdraw, onSuccess: () => invalidateWallet(queryClient) });
}
