import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { riskOverviewQueryOptions } from './get-risk-overview';

export type TraderCapsBody = Schemas['UpdateTraderLimitsBody'];

/** The caps every trader's open real trades are held to, unless the trader has lower ones. */
export function updateTraderDefaults(body: TraderCapsBody): Promise<Schemas['TraderRiskDefaults']> {
  return api.put('/api/admin/risk/traders', body);
}

export function useUpdateTraderDefaults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTraderDefaults,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: riskOverviewQueryOptions().queryKey }),
  });
}
