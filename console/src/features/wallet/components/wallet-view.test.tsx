// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import type { Wallet } from '../api/get-wallet';
import { CANCEL_BONUS_CONFIRM } from './bonus-card';
import { WalletView } from './wallet-view';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const NO_BONUS: Wallet = {
  real_balance: 100,
  demo_balance: 10000,
  bonus_balance: 0,
  bonus_status: null,
  bonus_turnover_progress: 0,
  bonus_turnover_required: 0,
  bonus_expires_at: null,
  first_deposit_bonus_used: false,
  bonus_amount: 0,
  bonus_days_remaining: 0,
  bonus_max_stake: 0,
};

const ACTIVE_BONUS: Wallet = {
  ...NO_BONUS,
  bonus_balance: 50,
  bonus_status: 'active',
  bonus_turnover_progress: 120,
  bonus_turnover_required: 1750,
  bonus_expires_at: '2026-12-21T00:00:00.000Z',
  first_deposit_bonus_used: true,
  bonus_amount: 50,
  bonus_days_remaining: 30,
  bonus_max_stake: 10,
};

const TRANSACTIONS = [
  {
    id: 2,
    type: 'bonus_credit',
    amount: 50,
    balance_after: 50,
    account_type: 'bonus',
    created_at: '2026-11-21T10:00:00.000Z',
  },
  {
    id: 1,
    type: 'deposit',
    amount: 100,
    balance_after: 100,
    account_type: 'real',
    created_at: '2026-11-21T10:00:00.000Z',
  },
];

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status });
}

/** Answers the wallet's GETs from `wallet` and `transactions`; POSTs go to `onPost`. */
function mockApi(
  wallet: Wallet,
  options: { transactions?: unknown[]; onPost?: (url: string, body: unknown) => Response } = {},
) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === 'POST') {
      const body: unknown = init.body ? JSON.parse(init.body as string) : undefined;
      return options.onPost ? options.onPost(url, body) : json({});
    }
    if (url === '/api/wallet') return json(wallet);
    if (url.startsWith('/api/wallet/transactions')) return json(options.transactions ?? []);
    return json({ detail: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function posts(fetchMock: ReturnType<typeof mockApi>) {
  return fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
}

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('WalletView', () => {
  it.each(['', '0', '-5'])(
    "refuses the deposit amount '%s' with 'Please enter a valid amount'",
    async (amount) => {
      const fetchMock = mockApi(NO_BONUS);
      const user = userEvent.setup();
      renderWithProviders(<WalletView />);
      const input = await screen.findByLabelText('Amount ($)');
      expect((input as HTMLInputElement).value).toBe('100');
      await user.clear(input);
      if (amount) await user.type(input, amount);
      await user.click(screen.getByRole('button', { name: 'Deposit (Mock)' }));
      expect(toast.error).toHaveBeenCalledWith('Please enter a valid amount');
      expect(posts(fetchMock)).toHaveLength(0);
    },
  );

  it("refuses an empty withdrawal with 'Please enter a valid amount'", async () => {
    const fetchMock = mockApi(NO_BONUS);
    const user = userEvent.setup();
    renderWithProviders(<WalletView />);
    await user.click(await screen.findByRole('button', { name: 'Request Withdrawal' }));
    expect(toast.error).toHaveBeenCalledWith('Please enter a valid amount');
    expect(posts(fetchMock)).toHaveLength(0);
  });

  it('shows the balances in INR at 83.12 after the switch', async () => {
    mockApi(NO_BONUS);
    const user = userEvent.setup();
    renderWithProviders(<WalletView />);
    expect(await screen.findByText('$100.00')).toBeTruthy();
    expect(screen.getByText('$10000.00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'INR' }));
    expect(screen.getByTestId('real-balance').textContent).toBe('₹8312.00');
    expect(screen.getByTestId('demo-balance').textContent).toBe('₹831200.00');
    await user.click(screen.getByRole('button', { name: 'USD' }));
    expect(screen.getByTestId('real-balance').textContent).toBe('$100.00');
  });

  it('shows the welcome banner while the bonus is unused and none is active; Claim Now focuses the amount', async () => {
    mockApi(NO_BONUS);
    const user = userEvent.setup();
    renderWithProviders(<WalletView />);
    expect(await screen.findByText('Welcome Bonus Available!')).toBeTruthy();
    expect(
      screen.getByText('50% bonus on your first deposit (up to $500). Minimum deposit $20.'),
    ).toBeTruthy();
    expect(screen.queryByText('50% First Deposit')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Claim Now' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Amount ($)'));
  });

  it('hides the banner once the first-deposit bonus was used', async () => {
    mockApi({ ...NO_BONUS, first_deposit_bonus_used: true, bonus_status: 'completed' });
    renderWithProviders(<WalletView />);
    expect(await screen.findByText('$100.00')).toBeTruthy();
    expect(screen.queryByText('Welcome Bonus Available!')).toBeNull();
    expect(screen.queryByText('50% First Deposit')).toBeNull();
  });

  it('hides the banner and shows the bonus card while a bonus is active', async () => {
    mockApi({ ...ACTIVE_BONUS, first_deposit_bonus_used: false });
    renderWithProviders(<WalletView />);
    expect(await screen.findByText('50% First Deposit')).toBeTruthy();
    expect(screen.queryByText('Welcome Bonus Available!')).toBeNull();
    expect(screen.getByText('$120.00 / $1750.00')).toBeTruthy();
    expect(screen.getByText('$10.00')).toBeTruthy();
    expect(screen.getByText('30')).toBeTruthy();
    expect(screen.getByText('6.9%')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Bonus Policy/ }).getAttribute('href')).toBe('/bonus-policy');
  });

  it('caps the wagering progress bar at 100%', async () => {
    mockApi({ ...ACTIVE_BONUS, bonus_turnover_progress: 2500 });
    renderWithProviders(<WalletView />);
    const bar = await screen.findByRole('progressbar', { name: 'Wagering Progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('100%');
    expect(screen.getByText('100.0%')).toBeTruthy();
  });

  it('deposits to the chosen account, toasts, clears the amount and reloads', async () => {
    const fetchMock = mockApi(NO_BONUS, { onPost: () => json({ ...NO_BONUS, status: 'completed' }) });
    const user = userEvent.setup();
    renderWithProviders(<WalletView />);
    await screen.findByText('$100.00');
    await user.click(screen.getAllByRole('button', { name: 'Demo' })[0]!);
    await user.click(screen.getByRole('button', { name: 'Deposit (Mock)' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Deposit successful!'));
    const [[url, init]] = posts(fetchMock) as unknown as [[string, RequestInit]];
    expect(url).toBe('/api/wallet/deposit');
    expect(JSON.parse(init.body as string)).toEqual({ amount: 100, account_type: 'demo' });
    expect((screen.getByLabelText('Amount ($)') as HTMLInputElement).value).toBe('');
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([path]) => path === '/api/wallet').length).toBeGreaterThan(1),
    );
  });

  it("shows the server's detail when a withdrawal fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi(NO_BONUS, { onPost: () => json({ detail: 'Insufficient balance' }, 422) });
    const user = userEvent.setup();
    renderWithProviders(<WalletView />);
    await user.type(await screen.findByLabelText('Amount'), '50');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Insufficient balance'));
  });

  it('cancels the bonus only after confirmation', async () => {
    const fetchMock = mockApi(ACTIVE_BONUS);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const user = userEvent.setup();
    renderWithProviders(<WalletView />);
    const button = await screen.findByRole('button', { name: 'Cancel Bonus' });
    await user.click(button);
    expect(confirm).toHaveBeenCalledWith(CANCEL_BONUS_CONFIRM);
    expect(posts(fetchMock)).toHaveLength(0);
    await user.click(button);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Bonus cancelled'));
    expect(posts(fetchMock)[0]![0]).toBe('/api/wallet/cancel-bonus');
  });

  it('lists the transactions with readable types', async () => {
    mockApi(NO_BONUS, { transactions: TRANSACTIONS });
    renderWithProviders(<WalletView />);
    expect(await screen.findByText('bonus credit')).toBeTruthy();
    expect(screen.getAllByText('+$100.00').length).toBe(1);
    expect(screen.getByRole('columnheader', { name: 'Balance After' })).toBeTruthy();
  });

  it("says 'No transactions yet' and toasts 'Failed to load wallet data' when loading fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ detail: 'boom' }, 500)),
    );
    renderWithProviders(<WalletView />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load wallet data'));
    expect(toast.error).toHaveBeenCalledTimes(1);
    expect(screen.getByText('No transactions yet')).toBeTruthy();
  });
});
