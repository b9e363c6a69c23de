import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Dispute } from '../../../lib/disputes';
import { disputesQueryOptions } from './get-disputes';

export interface FileDisputeInput {
  tradeId: string;
  reason: string;
}

/** The answer carries the server's replay of the settlement, made while the request waited. */
export function fileDispute({ tradeId, reason }: FileDisputeInput): Promise<Dispute> {
  return api.post('/api/trades/{id}/disputes', { reason }, { params: { id: tradeId } });
}

export function useFileDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fileDispute,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: disputesQueryOptions().queryKey }),
  });
}
