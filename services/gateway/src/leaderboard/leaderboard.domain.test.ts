import { describe, expect, it } from 'vitest';
import { leaderboardName, utcDay } from './leaderboard.domain';

describe('leaderboard name', () => {
  it('shows the first name and the last name initial', () => {
    expect(leaderboardName('Ann Lee')).toBe('Ann L.');
    expect(leaderboardName('  ann   maria  lee ')).toBe('ann L.');
    expect(leaderboardName('Zoë émile')).toBe('Zoë É.');
  });

  it('shows a single name as it is', () => {
    expect(leaderboardName('Cher')).toBe('Cher');
    expect(leaderboardName('   ')).toBe('');
  });
});

describe('UTC day', () => {
  it('starts at midnight UTC', () => {
    const noon = Date.UTC(2026, 2, 5, 12, 0, 0);
    expect(utcDay(noon)).toEqual({ startMs: Date.UTC(2026, 2, 5), endMs: Date.UTC(2026, 2, 6) });
    expect(utcDay(Date.UTC(2026, 2, 6)).startMs).toBe(Date.UTC(2026, 2, 6));
  });
});
