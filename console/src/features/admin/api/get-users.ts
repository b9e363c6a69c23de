import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

export type AdminUser = Schemas['AdminUser'];

/** Newest accounts first, each with its balances and settled real-trade statistics. */
export function getUsers(): Promise<AdminUser[]> {
  return api.get('/api/admin/users');
}

export function usersQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'users'], queryFn: getUsers });
}

export function useUsers() {
  return useQuery(usersQueryOptions());
}
