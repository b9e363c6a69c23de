import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import {
  DASHBOARD_TRANSACTIONS_LIMIT,
  WALLET_TRANSACTIONS_LIMIT,
  transactionsQueryOptions,
} from './get-transactions';

export type Wallet = Schemas['Wallet'];

export function getWallet(): Promise<Wallet> {
  return api.get('/api/wallet');
}

export function walletQueryOptions() {
  return queryOptions({ queryKey: ['wallet', 'summary'], queryFn: getWallet });
}

export function useWallet() {
  return useQuery(walletQueryOptions());
}

/** Reloads the balances and every transaction list after money moved. */
export function invalidateWallet(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: walletQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: transactionsQueryOptions(WALLET_TRANSACTIONS_LIMIT).queryKey }),
    queryClient.invalidateQueries({
      queryKey: transactionsQueryOptions(DASHBOARD_TRANSACTIONS_LIMIT).queryKey,
    }),
  ]);
}
