import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserResponse } from '@updown/schemas/api';
import { api } from '../api-client';

export type User = UserResponse;

export function getMe(): Promise<User> {
  return api.get<User>('/api/auth/me');
}

export function meQueryOptions() {
  return queryOptions({ queryKey: ['auth', 'me'], queryFn: getMe, retry: false, staleTime: 60_000 });
}

export function useMe(enabled: boolean) {
  return useQuery({ ...meQueryOptions(), enabled });
}
