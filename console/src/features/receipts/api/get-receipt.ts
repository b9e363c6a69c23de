import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';

/**
 * A settled trade's signed receipt with its proof (`updown.receipt.v1`). The console hands the
 * document to the verifier and to the download untouched: nothing here may reshape or round it.
 */
export type ReceiptDocument = Schemas['ReceiptDocument'];
export type Receipt = Schemas['Receipt'];
/** A stored tick of a pair's hash chain; the price is a decimal string, never a float. */
export type ReceiptTick = Schemas['ChainTick'];

/** The server's refusal while the trade is pending or its covering checkpoint is not signed yet. */
export const RECEIPT_PENDING = 'RECEIPT_PENDING';
/** Checkpoints are signed every minute by default: asking again every few seconds finds it soon after. */
export const RECEIPT_PENDING_POLL_MS = 3000;

export function isReceiptPending(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && error.code === RECEIPT_PENDING;
}

export function getReceipt(tradeId: string): Promise<ReceiptDocument> {
  return api.get('/api/trades/{id}/receipt', { params: { id: tradeId } });
}

export function receiptQueryOptions(tradeId: string) {
  return queryOptions({
    queryKey: ['receipts', tradeId],
    queryFn: () => getReceipt(tradeId),
    // A signed receipt never changes.
    staleTime: Infinity,
    // A pending receipt is asked for again on a timer; any other refusal will not change by retrying.
    retry: false,
    refetchInterval: (query) => (isReceiptPending(query.state.error) ? RECEIPT_PENDING_POLL_MS : false),
  });
}

export function useReceipt(tradeId: string) {
  return useQuery(receiptQueryOptions(tradeId));
}
