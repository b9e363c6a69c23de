import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlaceTradeBody, Trade } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';
import { randomId } from '../../../lib/random-id';
import { activeTradesQueryOptions } from './get-active-trades';
import { tradeHistoryQueryOptions } from './get-trade-history';

/** One key per click: a network retry of the same click is debited once by the server. */
export function placeTrade(body: PlaceTradeBody, idempotencyKey: string): Promise<Trade> {
  return api.post<Trade>('/api/trades/place', body, { headers: { 'Idempotency-Key': idempotencyKey } });
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
