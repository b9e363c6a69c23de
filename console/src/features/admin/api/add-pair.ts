import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BodyOf, Schemas } from '../../../lib/api-schema';

type AddPairBody = BodyOf<'/api/admin/pairs', 'post'>;
type MarketPair = Schemas['MarketPair'];
import { api } from '../../../lib/api-client';
import { adminFeedsQueryOptions } from './get-admin-feeds';
import { adminPairsQueryOptions } from './get-admin-pairs';

/** Pairs an admin adds are priced by the built-in feed unless told otherwise (spec §9). */
export const DEFAULT_PAIR_PROVIDER = 'OTC';

export function addPair(body: AddPairBody): Promise<MarketPair> {
  return api.post('/api/admin/pairs', { provider: DEFAULT_PAIR_PROVIDER, ...body });
}

export function useAddPair() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPair,
    // A new pair is a new row of the Feeds tab as well.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminPairsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: adminFeedsQueryOptions().queryKey }),
      ]),
  });
}
