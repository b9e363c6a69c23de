import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import type { Timeframe } from '@updown/schemas/market';
import { api } from '../../../lib/api-client';

export type Candle = Schemas['Candle'];

export const CANDLES_LIMIT = 200;

export function getCandles(pair: string, timeframe: Timeframe): Promise<Candle[]> {
  return api.get('/api/market/candles', { auth: false, query: { pair, timeframe, limit: CANDLES_LIMIT } });
}

/**
 * The snapshot the chart starts from; live ticks then go straight into the series, so the snapshot
 * is never refetched behind the chart's back and is dropped as soon as nobody shows it.
 */
export function candlesQueryOptions(pair: string, timeframe: Timeframe) {
  return queryOptions({
    queryKey: ['market', 'candles', pair, timeframe],
    queryFn: () => getCandles(pair, timeframe),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

export function useCandles(pair: string, timeframe: Timeframe) {
  return useQuery(candlesQueryOptions(pair, timeframe));
}
