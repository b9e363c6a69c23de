/** Pure rules of the daily leaderboard. */

export const LEADERBOARD_SIZE = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The public name: first name plus the initial of the last name ("Ann Lee" → "Ann L."), so a
 * public page never shows a full name. A single name is shown as it is.
 */
export function leaderboardName(fullName: string): string {
  const parts = fullName
    .trim()
    .split(/\s+/)
    .filter((part) => part !== '');
  const first = parts[0] ?? '';
  if (parts.length < 2) return first;
  const last = parts[parts.length - 1]!;
  return `${first} ${[...last][0]!.toUpperCase()}.`;
}

/** The UTC day holding `nowMs`, as [start, end) epoch milliseconds: the board resets at midnight UTC. */
export function utcDay(nowMs: number): { startMs: number; endMs: number } {
  const startMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { startMs, endMs: startMs + DAY_MS };
}
