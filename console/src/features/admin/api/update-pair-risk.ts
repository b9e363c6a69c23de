import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { riskOverviewQueryOptions } from './get-risk-overview';

export type PairRiskBody = Schemas['UpdatePairRiskBody'];

export interface UpdatePairRiskInput {
  symbol: string;
  settings: PairRiskBody;
}

/**
 * Replaces all six of the pair's risk settings at once. A refused combination is a 400
 * `INVALID_RISK_SETTINGS` whose `detail` says which field to fix.
 */
export function updatePairRisk({ symbol, settings }: UpdatePairRiskInput): Promise<Schemas['PairRisk']> {
  return api.put('/api/admin/risk/pairs/{symbol}', settings, { params: { symbol } });
}

export function useUpdatePairRisk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePairRisk,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: riskOverviewQueryOptions().queryKey }),
  });
}
