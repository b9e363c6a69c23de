// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { identityResponse } from '../../testing/fake-identity';
import { TEST_USER, fakeSession, renderWithProviders } from '../../testing/render';
import { DashboardPage } from './dashboard-page';

function trade(id: string, status: string, pnl: number | null) {
  return {
    id,
    pair: 'EURUSD',
    direction: 'UP',
    amount: 10,
    entry_price: 1.16,
    exit_price: pnl === null ? null : 1.17,
    payout_pct: 80,
    status,
    pnl,
    created_at: '2026-11-21T10:00:00.000Z',
    expiry_ts: 1_800_000_000,
    account_type: 'demo',
  };
}

function mockApi(trades: unknown[], transactions: unknown[] = []) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/wallet')
      return new Response(JSON.stringify({ real_balance: 150.5, demo_balance: 10000 }));
    if (url.startsWith('/api/trades/history')) return new Response(JSON.stringify(trades));
    if (url.startsWith('/api/wallet/transactions')) return new Response(JSON.stringify(transactions));
    if (url === '/api/identity') return new Response(JSON.stringify(identityResponse()));
    return new Response('{}', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DashboardPage', () => {
  it('greets the user and shows balances and the win rate with one decimal', async () => {
    const fetchMock = mockApi([
      trade('a', 'won', 8),
      trade('b', 'lost', -10),
      trade('c', 'won', 8),
      trade('d', 'pending', null),
      trade('e', 'draw', 0),
      trade('f', 'lost', -10),
    ]);
    renderWithProviders(<DashboardPage />, { session: fakeSession({ user: TEST_USER }) });
    expect(screen.getByText('Welcome back, Ann Lee!')).toBeTruthy();
    expect(screen.getByText("Here's your trading overview")).toBeTruthy();
    expect((await screen.findByText('33.3%')).dataset.testid).toBe('win-rate');
    expect(screen.getByText('2 W / 2 L')).toBeTruthy();
    expect(screen.getByTestId('total-trades').textContent).toBe('6');
    expect(await screen.findByText('$150.50')).toBeTruthy();
    expect(screen.getByText('$10000.00')).toBeTruthy();
    expect(screen.getAllByText('+8.00')[0]!.className).toBe('text-up');
    expect(screen.getAllByText('-10.00')[0]!.className).toBe('text-down');
    expect(screen.getByText('pending').className).toBe('badge badge--down');
    expect(fetchMock).toHaveBeenCalledWith('/api/wallet/transactions?limit=10', expect.anything());
  });

  it('shows 0.0% and the empty texts without trades or transactions', async () => {
    mockApi([]);
    renderWithProviders(<DashboardPage />, { session: fakeSession({ user: TEST_USER }) });
    expect(await screen.findByText('No trades yet. Start trading!')).toBeTruthy();
    expect(screen.getByTestId('win-rate').textContent).toBe('0.0%');
    expect(screen.getByText('0 W / 0 L')).toBeTruthy();
    expect(screen.getByText('No transactions yet')).toBeTruthy();
  });

  it('shows the Verification card with what is still needed', async () => {
    mockApi([]);
    renderWithProviders(<DashboardPage />, { session: fakeSession({ user: TEST_USER }) });
    const card = await screen.findByRole('region', { name: 'Verification' });
    expect(await within(card).findByText('Not started')).toBeTruthy();
    expect(within(card).getByText('Photo ID, Proof of address')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Submit for review' })).toBeTruthy();
  });

  it('shows 100.0% and a signed transaction list', async () => {
    mockApi(
      [trade('a', 'won', 8)],
      [
        {
          id: 1,
          type: 'trade_payout',
          amount: 18,
          balance_after: 118,
          account_type: 'real',
          created_at: '2026-11-21T10:00:00.000Z',
        },
        {
          id: 2,
          type: 'trade_stake',
          amount: -10,
          balance_after: 100,
          account_type: 'real',
          created_at: '2026-11-21T10:00:00.000Z',
        },
      ],
    );
    renderWithProviders(<DashboardPage />, { session: fakeSession({ user: TEST_USER }) });
    expect(await screen.findByText('trade payout')).toBeTruthy();
    expect(screen.getByText('+$18.00')).toBeTruthy();
    expect(screen.getByText('-$10.00')).toBeTruthy();
    expect(screen.getByTestId('win-rate').textContent).toBe('100.0%');
  });
});
