import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { adminFeedsQueryOptions } from './get-admin-feeds';
import { adminPairsQueryOptions } from './get-admin-pairs';

export type PairFeedBody = Schemas['UpdatePairFeedBody'];

export interface UpdatePairFeedInput {
  symbol: string;
  feed: PairFeedBody;
}

/**
 * Replaces the pair's whole feed configuration (its provider and reference); price-ingest switches
 * to it within a few seconds, without a restart. A refused configuration is a 400 `INVALID_FEED`
 * whose `detail` says what to fix.
 */
export function updatePairFeed({ symbol, feed }: UpdatePairFeedInput): Promise<Schemas['MarketPair']> {
  return api.put('/api/admin/pairs/{symbol}/feed', feed, { params: { symbol } });
}

export function useUpdatePairFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePairFeed,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminPairsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: adminFeedsQueryOptions().queryKey }),
      ]),
  });
}
