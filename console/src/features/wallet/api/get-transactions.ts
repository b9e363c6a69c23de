import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';

/** One balance movement; `amount` is signed dollars (positive is a credit). */
export type WalletTransaction = Schemas['WalletTransaction'];

/** Rows shown on the wallet page and on the dashboard (spec §9). */
export const WALLET_TRANSACTIONS_LIMIT = 50;
export const DASHBOARD_TRANSACTIONS_LIMIT = 10;

export function getTransactions(limit = WALLET_TRANSACTIONS_LIMIT): Promise<WalletTransaction[]> {
  return api.get('/api/wallet/transactions', { query: { limit } });
}

export function transactionsQueryOptions(limit = WALLET_TRANSACTIONS_LIMIT) {
  return queryOptions({
    queryKey: ['wallet', 'transactions', limit],
    queryFn: () => getTransactions(limit),
  });
}

export function useTransactions(limit = WALLET_TRANSACTIONS_LIMIT) {
  return useQuery(transactionsQueryOptions(limit));
}
