import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** One balance movement; `amount` is signed dollars (positive is a credit). */
export interface WalletTransaction {
  id: number;
  type: string;
  amount: number;
  balance_after: number;
  account_type: string;
  created_at: string;
}

/** Rows shown on the wallet page and on the dashboard (spec §9). */
export const WALLET_TRANSACTIONS_LIMIT = 50;
export const DASHBOARD_TRANSACTIONS_LIMIT = 10;

export function getTransactions(limit = WALLET_TRANSACTIONS_LIMIT): Promise<WalletTransaction[]> {
  return api.get<WalletTransaction[]>(`/api/wallet/transactions?limit=${limit}`);
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
