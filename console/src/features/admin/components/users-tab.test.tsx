// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import { fakeAdminApi, json } from '../testing/fake-admin-api';
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
});
