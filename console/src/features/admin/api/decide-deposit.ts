import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BodyOf, Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';
import { depositsQueryOptions } from './get-deposits';
import { usersQueryOptions } from './get-users';

export type RequestAction = BodyOf<'/api/admin/deposits/{id}', 'post'>['action'];

export interface DecideRequestInput {
  id: string;
  action: RequestAction;
}

export function decideDeposit({ id, action }: DecideRequestInput): Promise<Schemas['PaymentRequest']> {
  return api.post('/api/admin/deposits/{id}', { action }, { params: { id } });
}

/**
 * Resolves only after the list has reloaded, so the row's buttons stay disabled until the row
 * shows its new status and a second click cannot decide it again. An approval moves money, so the
 * users' balances reload too.
 */
export function useDecideDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideDeposit,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: depositsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey }),
      ]),
  });
}
