import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { riskOverviewQueryOptions } from './get-risk-overview';
import { usersQueryOptions } from './get-users';
import type { TraderCapsBody } from './update-trader-defaults';

export interface UpdateTraderLimitsInput {
  userId: string;
  limits: TraderCapsBody;
}

/**
 * A trader's own caps, below the defaults (a null clears one, falling back to the default). A cap
 * above the default is a 400 `INVALID_RISK_SETTINGS` whose `detail` says so.
 */
export function updateTraderLimits({
  userId,
  limits,
}: UpdateTraderLimitsInput): Promise<Schemas['TraderLimits']> {
  return api.put('/api/admin/users/{id}/limits', limits, { params: { id: userId } });
}

/** The users' lists (every sort order) and the Risk tab's top traders both show the limits. */
export function useUpdateTraderLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTraderLimits,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: riskOverviewQueryOptions().queryKey }),
      ]),
  });
}
