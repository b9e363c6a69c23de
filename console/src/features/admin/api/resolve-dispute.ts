import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { BodyOf } from '../../../lib/api-schema';
import { DISPUTE_STATUSES, type AdminDispute } from '../../../lib/disputes';
import { adminDisputesQueryOptions } from './get-admin-disputes';
import { usersQueryOptions } from './get-users';

/** Confirm leaves the settlement as it was; correct pays out the difference the replay found. */
export type DisputeDecision = BodyOf<'/api/admin/disputes/{id}/resolve', 'post'>['decision'];

export interface ResolveDisputeInput {
  id: string;
  decision: DisputeDecision;
  note: string;
}

export function resolveDispute({ id, decision, note }: ResolveDisputeInput): Promise<AdminDispute> {
  return api.post('/api/admin/disputes/{id}/resolve', { decision, note }, { params: { id } });
}

/**
 * Settles after every status's list has reloaded: the dispute leaves Open for Confirmed or
 * Corrected, and its row's buttons stay disabled until it has gone. A refusal reloads them too
 * (another admin may have resolved it meanwhile). A correction moves money, so the users' balances
 * reload as well.
 */
export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveDispute,
    onSettled: () =>
      Promise.all([
        ...DISPUTE_STATUSES.map((status) =>
          queryClient.invalidateQueries({ queryKey: adminDisputesQueryOptions(status).queryKey }),
        ),
        queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey }),
      ]),
  });
}
