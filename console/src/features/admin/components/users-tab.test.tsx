// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import userEvent from '@testing-library/user-event';
import { bodiesOf, calls, fakeAdminApi, json, toxicityScore } from '../testing/fake-admin-api';
import { UsersTab } from './users-tab';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const WINNER = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Ann Lee',
  email: 'ann@example.com',
  role: 'user',
  twofa_enabled: true,
  created_at: '2026-11-21T10:00:00.000Z',
  stats: { real_balance: 1234.5, demo_balance: 9876, total_trades: 3, win_rate: 66.7, net_pnl: 12.4 },
};

const LOSER = {
  ...WINNER,
  id: '00000000-0000-4000-8000-0000000000a2',
  name: 'Bob Roe',
  email: 'bob@example.com',
  twofa_enabled: false,
  stats: { real_balance: 0, demo_balance: 10000, total_trades: 7, win_rate: 42.86, net_pnl: -30 },
};

function rowOf(name: string) {
  return within(screen.getByText(name).closest('tr')!);
}

describe('UsersTab', () => {
  it('shows balances, trades, a coloured win rate and P&L, 2FA and the registered date', async () => {
    fakeAdminApi({ 'GET /api/admin/users': json([WINNER, LOSER]) });
    renderWithProviders(<UsersTab />);
    expect(screen.getByText('User Management & Statistics')).toBeTruthy();
    await screen.findByText('Ann Lee');
    for (const name of [
      'Name',
      'Email',
      'Real Balance',
      'Demo Balance',
      'Total Trades',
      'Win Rate',
      'Net P&L',
      '2FA',
      'Registered',
      'Toxicity',
      'Limits',
    ]) {
      expect(screen.getByRole('columnheader', { name })).toBeTruthy();
    }
    const ann = rowOf('Ann Lee');
    expect(ann.getByText('ann@example.com')).toBeTruthy();
    expect(ann.getByText('$1234.50')).toBeTruthy();
    expect(ann.getByText('$9876.00')).toBeTruthy();
    expect(ann.getByText('3')).toBeTruthy();
    expect(ann.getByText('66.7%').className).toBe('text-up');
    expect(ann.getByText('+$12.40').className).toBe('text-up');
    expect(ann.getByText('ON')).toBeTruthy();
    expect(ann.getByText(new Date(WINNER.created_at).toLocaleDateString())).toBeTruthy();
    const bob = rowOf('Bob Roe');
    expect(bob.getByText('42.9%').className).toBe('text-down');
    expect(bob.getByText('-$30.00').className).toBe('text-down');
    expect(bob.getByText('OFF')).toBeTruthy();
    expect(bob.getByText('$10000.00')).toBeTruthy();
  });

  it('counts exactly 50% as a good win rate', async () => {
    fakeAdminApi({
      'GET /api/admin/users': json([{ ...WINNER, stats: { ...WINNER.stats, win_rate: 50 } }]),
    });
    renderWithProviders(<UsersTab />);
    expect((await screen.findByText('50.0%')).className).toBe('text-up');
  });

  it('shows a user without stats with the opening demo balance', async () => {
    const { stats: _stats, ...bare } = WINNER;
    fakeAdminApi({ 'GET /api/admin/users': json([bare]) });
    renderWithProviders(<UsersTab />);
    const ann = await screen.findByText('Ann Lee');
    const row = within(ann.closest('tr')!);
    // The real balance and the net P&L.
    expect(row.getAllByText('$0.00')).toHaveLength(2);
    expect(row.getByText('$10000.00')).toBeTruthy();
    expect(row.getByText('0.0%')).toBeTruthy();
  });

  it("says 'No users found' without users", async () => {
    fakeAdminApi({ 'GET /api/admin/users': json([]) });
    renderWithProviders(<UsersTab />);
    expect(await screen.findByText('No users found')).toBeTruthy();
  });

  it("toasts 'Failed to load admin data' when the list fails to load", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({ 'GET /api/admin/users': json({ detail: 'boom' }, 500) });
    renderWithProviders(<UsersTab />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
  });

  it('shows the toxicity score with its parts in the tooltip, and a dash before the first scored trade', async () => {
    fakeAdminApi({
      'GET /api/admin/users': json([
        { ...WINNER, toxicity: toxicityScore({ score: 82 }) },
        { ...LOSER, toxicity: null },
      ]),
    });
    renderWithProviders(<UsersTab />);
    await screen.findByText('Ann Lee');
    const score = rowOf('Ann Lee').getByText('82');
    expect(score.getAttribute('title')).toBe(
      'Skill 0.90 · Latency 0.75 · Profit 0.60 · 40 trades in 30 days',
    );
    expect(rowOf('Bob Roe').getByText('—')).toBeTruthy();
  });

  it('sorts by toxicity on request, asking the server for that order', async () => {
    const toxicFirst = [
      { ...LOSER, toxicity: toxicityScore({ score: 90 }) },
      { ...WINNER, toxicity: null },
    ];
    const fetchMock = fakeAdminApi({
      'GET /api/admin/users': (_body, url) =>
        json(url.includes('sort=toxicity') ? toxicFirst : [WINNER, LOSER]),
    });
    const user = userEvent.setup();
    renderWithProviders(<UsersTab />);
    await screen.findByText('Ann Lee');
    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('td')!.textContent);
    expect(names()).toEqual(['Ann Lee', 'Bob Roe']);
    const sortBy = within(screen.getByRole('group', { name: 'Sort by' }));
    expect(sortBy.getByRole('button', { name: 'Newest first' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(sortBy.getByRole('button', { name: 'Toxicity' }));
    await waitFor(() => expect(names()).toEqual(['Bob Roe', 'Ann Lee']));
    expect(calls(fetchMock)).toEqual(['GET /api/admin/users', 'GET /api/admin/users?sort=toxicity']);
    expect(sortBy.getByRole('button', { name: 'Toxicity' }).getAttribute('aria-pressed')).toBe('true');
  });

  it("sets a trader's own limits, an empty field falling back to the default", async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/users': json([{ ...WINNER, limits: { max_open_stake: 500, max_open_trades: null } }]),
      [`PUT /api/admin/users/${WINNER.id}/limits`]: json({ max_open_stake: 250, max_open_trades: 3 }),
    });
    const user = userEvent.setup();
    renderWithProviders(<UsersTab />);
    await screen.findByText('Ann Lee');
    expect(rowOf('Ann Lee').getByText('$500.00 staked')).toBeTruthy();
    await user.click(rowOf('Ann Lee').getByRole('button', { name: 'Limits' }));
    const form = within(screen.getByRole('form', { name: 'Limits of Ann Lee' }));
    const stake = form.getByLabelText('Max open stake ($)') as HTMLInputElement;
    expect(stake.value).toBe('500');
    await user.clear(stake);
    await user.type(stake, '250');
    await user.type(form.getByLabelText('Max open trades'), '3');
    await user.click(form.getByRole('button', { name: 'Save Limits' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Trader limits updated'));
    expect(bodiesOf(fetchMock, 'PUT', `/api/admin/users/${WINNER.id}/limits`)).toEqual([
      { max_open_stake: 250, max_open_trades: 3 },
    ]);
    expect(screen.queryByRole('form', { name: 'Limits of Ann Lee' })).toBeNull();
    // The list reloads to show the new limits.
    expect(calls(fetchMock).filter((call) => call === 'GET /api/admin/users')).toHaveLength(2);
  });

  it("shows the server's detail when a limit is above the default", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const detail = "A trader's cap can only be lower than the default ($2,000.00 open stake)";
    fakeAdminApi({
      'GET /api/admin/users': json([WINNER]),
      [`PUT /api/admin/users/${WINNER.id}/limits`]: json({ detail, code: 'INVALID_RISK_SETTINGS' }, 400),
    });
    const user = userEvent.setup();
    renderWithProviders(<UsersTab />);
    await screen.findByText('Ann Lee');
    await user.click(rowOf('Ann Lee').getByRole('button', { name: 'Limits' }));
    const form = within(screen.getByRole('form', { name: 'Limits of Ann Lee' }));
    await user.type(form.getByLabelText('Max open stake ($)'), '5000');
    await user.click(form.getByRole('button', { name: 'Save Limits' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(detail));
    expect(screen.getByRole('form', { name: 'Limits of Ann Lee' })).toBeTruthy();
  });

  it("opens a user's security activity in a dialog, pages it, and closes it", async () => {
    const activityPath = `/api/admin/users/${WINNER.id}/security-activity`;
    const event = (id: number, description: string, device: string) => ({
      id: String(id),
      kind: id === 9 ? 'refresh_token_reused' : 'sign_in',
      description,
      occurred_at: new Date(Date.UTC(2026, 10, 21, 10, 0, id)).toISOString(),
      address: '203.0.113.7',
      device,
      session_id: null,
    });
    const fetchMock = fakeAdminApi({
      'GET /api/admin/users': json([WINNER, LOSER]),
      [`GET ${activityPath}`]: (_body, url) =>
        url.includes('cursor=8')
          ? json({ events: [event(2, 'Signed in', 'Safari on iOS')], next_cursor: null })
          : json({
              events: [
                event(
                  9,
                  'A sign-in token was used twice, so we signed you out everywhere',
                  'Firefox on Windows',
                ),
                event(8, 'Signed in', 'Chrome on Linux'),
              ],
              next_cursor: '8',
            }),
    });
    const user = userEvent.setup();
    renderWithProviders(<UsersTab />);
    await screen.findByText('Ann Lee');
    expect(screen.getByRole('columnheader', { name: 'Security' })).toBeTruthy();
    await user.click(rowOf('Ann Lee').getByRole('button', { name: 'Security activity' }));

    const dialog = await screen.findByRole('dialog', { name: 'Security activity of Ann Lee' });
    const list = await within(dialog).findByRole('list', { name: 'Security activity of Ann Lee' });
    expect(
      within(list).getByText('A sign-in token was used twice, so we signed you out everywhere'),
    ).toBeTruthy();
    expect(within(list).getByText(/Firefox on Windows · 203\.0\.113\.7/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(within(list).getByText(/Safari on iOS/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    // Only the user asked about, page by page; Bob's activity is never fetched.
    expect(calls(fetchMock).filter((call) => call.includes('security-activity'))).toEqual([
      `GET ${activityPath}?limit=10`,
      `GET ${activityPath}?limit=10&cursor=8`,
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("says when a user's activity cannot be loaded, and closes on Escape", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({
      'GET /api/admin/users': json([WINNER]),
      [`GET /api/admin/users/${WINNER.id}/security-activity`]: json({ detail: 'boom' }, 500),
    });
    const user = userEvent.setup();
    renderWithProviders(<UsersTab />);
    await screen.findByText('Ann Lee');
    await user.click(rowOf('Ann Lee').getByRole('button', { name: 'Security activity' }));
    const dialog = await screen.findByRole('dialog', { name: 'Security activity of Ann Lee' });
    expect(await within(dialog).findByText('Security activity could not be loaded')).toBeTruthy();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
