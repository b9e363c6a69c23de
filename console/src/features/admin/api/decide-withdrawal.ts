import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';
import type { DecideRequestInput } from './decide-deposit';
import { usersQueryOptions } from './get-users';
import { withdrawalsQueryOptions } from './get-withdrawals';

export function decideWithdrawal({ id, action }: DecideRequestInput): Promise<Schemas['PaymentRequest']> {
  return api.post('/api/admin/withdrawals/{id}', { action }, { params: { id } });
}

/**
 * Resolves only after the list has reloaded, so the row's buttons stay disabled until the row
 * shows its new status. Deciding releases or pays out the held amount, so balances reload too.
 */
export function useDecideWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideWithdrawal,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: withdrawalsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey }),
      ]),
  });
}
