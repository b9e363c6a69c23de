import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { riskOverviewQueryOptions } from './get-risk-overview';

/**
 * Lifts the loss breaker's suspension of real trading on the pair; its window then counts from
 * now. A pair that was not suspended (another admin resumed it first) is a 409 `PAIR_NOT_SUSPENDED`.
 */
export function resumePair(symbol: string): Promise<Schemas['PairRisk']> {
  return api.post('/api/admin/risk/pairs/{symbol}/resume', undefined, { params: { symbol } });
}

export function useResumePair() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumePair,
    onSettled: () => queryClient.invalidateQueries({ queryKey: riskOverviewQueryOptions().queryKey }),
  });
}
