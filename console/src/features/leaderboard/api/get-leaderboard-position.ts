import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';
import { LEADERBOARD_REFRESH_MS } from './get-daily-leaderboard';

/** The signed-in trader's own row, ranked or not (rank null until a real trade settles today). */
export function getLeaderboardPosition(userId: string): Promise<Schemas['LeaderboardEntry']> {
  return api.get('/api/leaderboard/daily/position/{user_id}', { params: { user_id: userId } });
}

export function leaderboardPositionQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['leaderboard', 'daily', 'position', userId],
    queryFn: () => getLeaderboardPosition(userId),
  });
}

/** Asked only when someone is signed in (spec §7). */
export function useLeaderboardPosition(userId: string | undefined) {
  return useQuery({
    ...leaderboardPositionQueryOptions(userId ?? ''),
    enabled: userId !== undefined,
    refetchInterval: LEADERBOARD_REFRESH_MS,
  });
}
