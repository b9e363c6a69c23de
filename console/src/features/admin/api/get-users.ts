import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QueryOf, Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

export type AdminUser = Schemas['AdminUser'];
export type ToxicityScore = Schemas['ToxicityScore'];
export type UsersSort = NonNullable<NonNullable<QueryOf<'/api/admin/users', 'get'>>['sort']>;

/**
 * Every account with its balances, settled real-trade statistics, toxicity score and own limits:
 * newest first (`registered`, the server's default, so no query is sent), or most toxic first.
 */
export function getUsers(sort: UsersSort = 'registered'): Promise<AdminUser[]> {
  return api.get('/api/admin/users', { query: sort === 'registered' ? undefined : { sort } });
}

/**
 * One list per sort order. Without a sort the key is the prefix of every order's key, so a change
 * to the users (a deposit approved, a limit set) invalidates all of them through it.
 */
export function usersQueryOptions(sort?: UsersSort) {
  return queryOptions({
    queryKey: sort === undefined ? ['admin', 'users'] : ['admin', 'users', sort],
    queryFn: () => getUsers(sort),
  });
}

/** Switching the order keeps the rows on screen until the other order arrives. */
export function useUsers(sort: UsersSort = 'registered') {
  return useQuery({ ...usersQueryOptions(sort), placeholderData: (previous) => previous });
}
