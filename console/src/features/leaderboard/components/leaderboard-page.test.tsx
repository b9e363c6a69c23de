// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { TEST_USER, fakeSession, renderWithProviders } from '../../../testing/render';
import type { LeaderboardEntry } from '../api/get-daily-leaderboard';
import { formatSignedMoney, rankLabel, winRateTone } from './leaderboard-format';
import { LeaderboardPage } from './leaderboard-page';

function entry(rank: number | null, overrides: Partial<LeaderboardEntry> = {}): LeaderboardEntry {
  return {
    rank,
    user_id: `00000000-0000-4000-8000-${String(rank ?? 999).padStart(12, '0')}`,
    name: `Trader ${rank ?? 'X'}.`,
    total_pnl: 100 - (rank ?? 0) * 10,
    total_trades: 10,
    win_rate: 60,
    ...overrides,
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status });
}

function mockApi(board: unknown, position?: LeaderboardEntry, boardStatus = 200) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/leaderboard/daily') return json(board, boardStatus);
    if (url.startsWith('/api/leaderboard/daily/position/') && position) return json(position);
    return json({ detail: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('leaderboard formatting', () => {
  it('gives ranks 1 to 3 a trophy or medal, others #n, and an unranked trader --', () => {
    expect(rankLabel(1).icon).toBe('🏆');
    expect(rankLabel(2).icon).toBe('🥈');
    expect(rankLabel(3).icon).toBe('🥉');
    expect(rankLabel(4)).toEqual({ icon: null, text: '#4' });
    expect(rankLabel(null)).toEqual({ icon: null, text: '--' });
  });

  it('colours win rates: 60 and above good, 50 to 59 warning, below 50 bad', () => {
    expect([60, 75, 59.9, 50, 49.9, 0].map(winRateTone)).toEqual([
      'good',
      'good',
      'warning',
      'warning',
      'bad',
      'bad',
    ]);
  });

  it('signs P&L with two decimals', () => {
    expect(formatSignedMoney(12.5)).toBe('+$12.50');
    expect(formatSignedMoney(-3)).toBe('-$3.00');
    expect(formatSignedMoney(0)).toBe('$0.00');
  });
});

describe('LeaderboardPage', () => {
  it('shows the headings, the columns, trophies for the podium and #n below it', async () => {
    mockApi([entry(1), entry(2), entry(3), entry(4, { win_rate: 45.5, total_pnl: -20 })]);
    renderWithProviders(<LeaderboardPage />, { path: '/leaderboard' });

    expect(screen.getByRole('heading', { level: 1, name: 'Daily Leaderboard' })).toBeTruthy();
    expect(
      screen.getByText('Compete with traders worldwide. Rankings are based on daily profit & loss.'),
    ).toBeTruthy();
    expect(screen.getByText('Daily Leaderboard - Top 20')).toBeTruthy();
    expect(screen.getByText('Rankings reset daily at midnight UTC')).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Rank', 'Trader', 'P&L', 'Trades', 'Win Rate']);
    expect(within(table).getByLabelText('Rank 1').textContent).toBe('🏆');
    expect(within(table).getByLabelText('Rank 3').textContent).toBe('🥉');
    expect(within(table).getByText('#4')).toBeTruthy();
    expect(within(table).getByText('-$20.00').className).toBe('text-down');
    expect(within(table).getByText('45.5%').className).toContain('win-rate--bad');
    for (const name of ['Home', 'Trade', 'Wallet']) expect(screen.getByRole('link', { name })).toBeTruthy();
  });

  it("shows 'No trades today yet. Be the first!' on an empty day, and no position for a visitor", async () => {
    const fetchMock = mockApi([]);
    renderWithProviders(<LeaderboardPage />, { path: '/leaderboard' });
    expect(await screen.findByText('No trades today yet. Be the first!')).toBeTruthy();
    expect(screen.queryByText('Your Position')).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/leaderboard/daily']);
  });

  it("shows a signed-in trader's position, '--' while unranked", async () => {
    mockApi(
      [entry(1)],
      entry(null, { user_id: TEST_USER.id, name: 'Ann L.', total_pnl: 0, total_trades: 0, win_rate: 0 }),
    );
    renderWithProviders(<LeaderboardPage />, {
      path: '/leaderboard',
      session: fakeSession({ user: TEST_USER }),
    });
    const card = await screen.findByRole('region', { name: 'Your Position' });
    expect(within(card).getByText('--')).toBeTruthy();
    expect(within(card).getByText('Ann L.')).toBeTruthy();
    expect(within(card).getByText('0.0%')).toBeTruthy();
  });

  it('ends the loading state and logs when the board fails to load', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi({ detail: 'boom' }, undefined, 500);
    renderWithProviders(<LeaderboardPage />, { path: '/leaderboard' });
    expect(await screen.findByText('No trades today yet. Be the first!')).toBeTruthy();
    expect(logged).toHaveBeenCalledWith('Failed to load the leaderboard', expect.anything());
  });
});
