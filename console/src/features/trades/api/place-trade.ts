import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type PlaceTradeBody = Schemas['PlaceTradeBody'];
/** The durations the server takes, as a type: a trade of any other length does not compile. */
export type TradeDuration = PlaceTradeBody['duration'];
type Trade = Schemas['Trade'];
import { api } from '../../../lib/api-client';
import { randomId } from '../../../lib/random-id';
import { activeTradesQueryOptions } from './get-active-trades';
import { tradeHistoryQueryOptions } from './get-trade-history';

/** One key per click: a network retry of the same click is debited once by the server. */
export function placeTrade(body: PlaceTradeBody, idempotencyKey: string): Promise<Trade> {
  return api.post('/api/trades/place', body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

export function usePlaceTrade() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PlaceTradeBody) => placeTrade(body, randomId()),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: activeTradesQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: tradeHistoryQueryOptions().queryKey });
    },
  });
}
