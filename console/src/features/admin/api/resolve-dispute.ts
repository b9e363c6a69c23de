import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { BodyOf } from '../../../lib/api-schema';
import type { AdminDispute } from '../../../lib/disputes';
import { ADMIN_DISPUTES_QUERY_KEY } from './get-admin-disputes';
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
 * Settles after every dispute list (each status and trader filter, every page loaded) has
 * reloaded: the dispute leaves Open for Confirmed or Corrected, and its row's buttons stay
 * disabled until it has gone. A refusal reloads them too
 * (another admin may have resolved it meanwhile). A correction moves money, so the users' balances
 * reload as well.
 */
export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveDispute,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_DISPUTES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey }),
      ]),
  });
}
