import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import type { Schemas } from '../api-schema';

export type User = Schemas['User'];

export function getMe(): Promise<User> {
  return api.get('/api/auth/me');
}

export function meQueryOptions() {
  return queryOptions({ queryKey: ['auth', 'me'], queryFn: getMe, retry: false, staleTime: 60_000 });
}

export function useMe(enabled: boolean) {
  return useQuery({ ...meQueryOptions(), enabled });
}
