import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';

export type ActiveSession = Schemas['ActiveSession'];

/**
 * The signed-in user's sessions that can still be renewed, most recently seen first, each with its
 * device and address; the one asking is marked `current`.
 */
export async function getSessions(): Promise<ActiveSession[]> {
  return (await api.get('/api/auth/sessions')).sessions;
}

export function sessionsQueryOptions() {
  return queryOptions({ queryKey: ['auth', 'sessions'], queryFn: getSessions });
}

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
