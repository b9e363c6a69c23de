import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { VerificationDecisionRequest, VerificationSummary } from '../../../lib/identity';
import { verificationsQueryOptions } from './get-verifications';
import { withdrawalsQueryOptions } from './get-withdrawals';

export type VerificationAction = VerificationDecisionRequest['action'];

export interface DecideVerificationInput {
  id: string;
  action: VerificationAction;
  /** Required to reject: what the trader must fix (shown to them). */
  reason?: string;
}

export function decideVerification({
  id,
  action,
  reason,
}: DecideVerificationInput): Promise<VerificationSummary> {
  const body: VerificationDecisionRequest = reason === undefined ? { action } : { action, reason };
  return api.post('/api/admin/verifications/{id}', body, { params: { id } });
}

/**
 * Settles after the queue and the submission have reloaded, on a refusal too: a 409 means another
 * admin decided first, and the queue should show it. The withdrawals table shows each trader's
 * identity status, so it reloads as well.
 */
export function useDecideVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideVerification,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: verificationsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: withdrawalsQueryOptions().queryKey }),
      ]),
  });
}
