import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUserResponse } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';

export type AdminUser = AdminUserResponse;

/** Newest accounts first, each with its balances and settled real-trade statistics. */
export function getUsers(): Promise<AdminUser[]> {
  return api.get<AdminUser[]>('/api/admin/users');
}

export function usersQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'users'], queryFn: getUsers });
}

export function useUsers() {
  return useQuery(usersQueryOptions());
}
