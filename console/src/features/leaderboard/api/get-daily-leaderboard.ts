import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

export type LeaderboardEntry = Schemas['LeaderboardEntry'];

/** Spec §9: the leaderboard refreshes every 30 seconds. */
export const LEADERBOARD_REFRESH_MS = 30_000;

/** Public: the token is sent when there is one, and a visitor without one still gets the board. */
export function getDailyLeaderboard(): Promise<LeaderboardEntry[]> {
  return api.get('/api/leaderboard/daily');
}

export function dailyLeaderboardQueryOptions() {
  return queryOptions({ queryKey: ['leaderboard', 'daily'], queryFn: getDailyLeaderboard });
}

export function useDailyLeaderboard() {
  return useQuery({ ...dailyLeaderboardQueryOptions(), refetchInterval: LEADERBOARD_REFRESH_MS });
}
