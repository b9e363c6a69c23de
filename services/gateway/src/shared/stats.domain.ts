/** Pure figures shown on more than one screen (the leaderboard and the admin users table). */

/** Win rate = wins / total trades x 100, 1 decimal (spec §9); 0 with no trades. */
export function winRatePct(wins: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((wins * 1000) / total) / 10;
}
