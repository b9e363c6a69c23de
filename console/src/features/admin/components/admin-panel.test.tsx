// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { toast } from 'sonner';
import { TEST_USER, fakeSession, renderWithProviders } from '../../../testing/render';
import {
  ADMIN_FEEDS,
  ADMIN_PAIRS,
  RISK_OVERVIEW,
  calls,
  fakeAdminApi,
  json,
  paymentRequest,
} from '../testing/fake-admin-api';
import { AdminPanel } from './admin-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

// The tabs are lazy modules. Loading them once up front keeps the first render of each from
// waiting on the test runner's module transform; the longer wait covers a busy machine, where
// React's first suspend-and-retry alone can outlast the default second.
const LAZY_TAB = { timeout: 5000 };

beforeAll(async () => {
  await Promise.all([
    import('./pairs-tab'),
    import('./feeds-tab'),
    import('./risk-tab'),
    import('./settings-tab'),
    import('./deposits-tab'),
    import('./withdrawals-tab'),
    import('./verification-tab'),
    import('./users-tab'),
    import('./disputes-tab'),
  ]);
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ADMIN = { ...TEST_USER, role: 'admin' as const };

function SearchProbe() {
  return <div data-testid="search">{useLocation().search}</div>;
}

function everyList() {
  return fakeAdminApi({
    'GET /api/admin/pairs': json(ADMIN_PAIRS),
    'GET /api/admin/feeds': json(ADMIN_FEEDS),
    'GET /api/admin/risk': json(RISK_OVERVIEW),
    'GET /api/admin/settings': json({ payout_pct: 80, require_deposit_approval: false }),
    'GET /api/admin/deposits': json([paymentRequest()]),
    'GET /api/admin/withdrawals': json([]),
    'GET /api/admin/verifications': json([]),
    'GET /api/admin/users': json([]),
    'GET /api/admin/disputes': json({ disputes: [], next_cursor: null }),
  });
}

function renderPanel(path = '/admin', session = fakeSession({ user: ADMIN })) {
  return renderWithProviders(
    <>
      <AdminPanel />
      <SearchProbe />
    </>,
    { path, session },
  );
}

describe('AdminPanel', () => {
  it('opens Trading Pairs by default and loads only the pairs', async () => {
    const fetchMock = everyList();
    renderPanel();
    expect(screen.getByRole('heading', { name: 'Admin Panel' })).toBeTruthy();
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual([
      'Trading Pairs',
      'Feeds',
      'Risk',
      'Settings',
      'Deposits',
      'Withdrawals',
      'Verification',
      'Users',
      'Disputes',
    ]);
    expect(screen.getByRole('tab', { name: 'Trading Pairs' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('EURUSD', undefined, LAZY_TAB)).toBeTruthy();
    expect(calls(fetchMock)).toEqual(['GET /api/admin/pairs']);
  });

  it('loads a tab only when it opens, and keeps the open tab in ?tab=', async () => {
    const fetchMock = everyList();
    const user = userEvent.setup();
    renderPanel();
    await screen.findByText('EURUSD', undefined, LAZY_TAB);
    await user.click(screen.getByRole('tab', { name: 'Deposits' }));
    expect(await screen.findByText('abcdef12…', undefined, LAZY_TAB)).toBeTruthy();
    expect(screen.getByTestId('search').textContent).toBe('?tab=deposits');
    expect(calls(fetchMock)).toEqual(['GET /api/admin/pairs', 'GET /api/admin/deposits']);
    await user.click(screen.getByRole('tab', { name: 'Withdrawals' }));
    expect(await screen.findByText('No pending withdrawals', undefined, LAZY_TAB)).toBeTruthy();
    expect(calls(fetchMock)).not.toContain('GET /api/admin/users');
    expect(calls(fetchMock)).not.toContain('GET /api/admin/settings');
  });

  it('opens the tab named in the URL, and only loads that one', async () => {
    const fetchMock = everyList();
    renderPanel('/admin?tab=users');
    expect(await screen.findByText('No users found', undefined, LAZY_TAB)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true');
    expect(calls(fetchMock)).toEqual(['GET /api/admin/users']);
  });

  it('falls back to Trading Pairs for an unknown tab', async () => {
    everyList();
    renderPanel('/admin?tab=nope');
    expect(await screen.findByText('EURUSD', undefined, LAZY_TAB)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Trading Pairs' }).getAttribute('aria-selected')).toBe('true');
  });

  it('opens the Feeds tab after Trading Pairs and loads only the feeds', async () => {
    const fetchMock = everyList();
    renderPanel('/admin?tab=feeds');
    expect(await screen.findByText('Feeds disagree', undefined, LAZY_TAB)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Feeds' }).getAttribute('aria-selected')).toBe('true');
    expect(calls(fetchMock)).toEqual(['GET /api/admin/feeds']);
  });

  it('opens the Risk tab after Feeds and loads only the risk overview', async () => {
    const fetchMock = everyList();
    renderPanel('/admin?tab=risk');
    expect(await screen.findByText('Top traders by toxicity', undefined, LAZY_TAB)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Risk' }).getAttribute('aria-selected')).toBe('true');
    expect(calls(fetchMock)).toEqual(['GET /api/admin/risk']);
  });

  it('opens the Verification tab after Withdrawals and loads only the pending queue', async () => {
    const fetchMock = everyList();
    renderPanel('/admin?tab=verification');
    expect(await screen.findByText('No verifications waiting for review', undefined, LAZY_TAB)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Verification' }).getAttribute('aria-selected')).toBe('true');
    expect(calls(fetchMock)).toEqual(['GET /api/admin/verifications?status=pending']);
  });

  it('moves between tabs with the arrow keys', async () => {
    everyList();
    const user = userEvent.setup();
    renderPanel('/admin?tab=disputes');
    await screen.findByText('No open disputes', undefined, LAZY_TAB);
    screen.getByRole('tab', { name: 'Disputes' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByTestId('search').textContent).toBe('?tab=pairs');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Trading Pairs' }));
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('search').textContent).toBe('?tab=disputes');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('search').textContent).toBe('?tab=users');
  });

  it('Back to Trading goes to /trade', async () => {
    everyList();
    const user = userEvent.setup();
    renderPanel();
    await user.click(screen.getByRole('button', { name: 'Back to Trading' }));
    expect(screen.getByTestId('location').textContent).toBe('/trade');
  });

  it('Logout ends the session, then goes to /login', async () => {
    everyList();
    const logout = vi.fn(async () => {});
    const user = userEvent.setup();
    renderPanel('/admin', fakeSession({ user: ADMIN, logout }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(logout).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
  });

  it("toasts 'Failed to load admin data' when the open tab's list fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({ 'GET /api/admin/withdrawals': json({ detail: 'boom' }, 500) });
    renderPanel('/admin?tab=withdrawals');
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'), LAZY_TAB);
  });
});
