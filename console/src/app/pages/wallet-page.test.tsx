// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { IdentityResponse } from '../../lib/identity';
import { calls, fakeApi, json } from '../../testing/fake-api';
import {
  PENDING_IDENTITY,
  REJECTED_IDENTITY,
  VERIFIED_IDENTITY,
  identityResponse,
} from '../../testing/fake-identity';
import { TEST_USER, fakeSession, renderWithProviders } from '../../testing/render';
import { WalletPage } from './wallet-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const WALLET = {
  real_balance: 100,
  demo_balance: 10000,
  bonus_balance: 0,
  bonus_status: null,
  bonus_turnover_progress: 0,
  bonus_turnover_required: 0,
  bonus_expires_at: null,
  first_deposit_bonus_used: true,
  bonus_amount: 0,
  bonus_days_remaining: 0,
  bonus_max_stake: 0,
};

const NOTICE = 'Verify your identity to withdraw real funds';

function walletApi(identity: IdentityResponse | Response, withdraw?: Response) {
  return fakeApi({
    'GET /api/wallet': json(WALLET),
    'GET /api/wallet/transactions': json([]),
    'GET /api/identity': identity instanceof Response ? identity : json(identity),
    ...(withdraw ? { 'POST /api/wallet/withdraw': withdraw } : {}),
  });
}

function renderPage() {
  return renderWithProviders(<WalletPage />, { session: fakeSession({ user: TEST_USER }), path: '/wallet' });
}

/** The Withdraw card, once the wallet has loaded (the forms wait for it). */
async function findWithdrawCard() {
  return within(await screen.findByRole('region', { name: 'Withdraw' }));
}

describe('WalletPage', () => {
  it.each([
    ['not started', identityResponse(), 'Upload your documents on the dashboard'],
    ['pending', PENDING_IDENTITY, 'Your documents are under review: see the dashboard'],
    ['rejected', REJECTED_IDENTITY, 'See why on the dashboard and upload them again'],
  ])(
    'shows the verification notice on the Withdraw card while %s, with a link to the dashboard',
    async (_name, identity, linkText) => {
      walletApi(identity);
      const user = userEvent.setup();
      renderPage();
      const withdrawCard = await findWithdrawCard();
      expect(await withdrawCard.findByText(NOTICE)).toBeTruthy();
      const link = withdrawCard.getByRole('link', { name: linkText });
      expect(link.getAttribute('href')).toBe('/dashboard');
      // The card's own texts and its button are unchanged.
      expect(withdrawCard.getByText('Withdrawals require admin approval')).toBeTruthy();
      const button = withdrawCard.getByRole('button', { name: 'Request Withdrawal' }) as HTMLButtonElement;
      expect(button.disabled).toBe(false);
      await user.click(link);
      expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    },
  );

  it('shows no notice once the identity is verified', async () => {
    const fetchMock = walletApi(VERIFIED_IDENTITY);
    renderPage();
    const withdrawCard = await findWithdrawCard();
    await waitFor(() => expect(calls(fetchMock)).toContain('GET /api/identity'));
    // Let the identity answer render before looking for what it would have added.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(withdrawCard.getByRole('button', { name: 'Request Withdrawal' })).toBeTruthy();
    expect(screen.queryByText(NOTICE)).toBeNull();
  });

  it('shows no notice when the status fails to load: the server still refuses, with its reason', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    walletApi(
      json({ detail: 'boom' }, 500),
      json(
        {
          code: 'IDENTITY_NOT_VERIFIED',
          detail:
            'Verify your identity before withdrawing: upload a photo ID and a proof of address on your dashboard',
        },
        403,
      ),
    );
    const user = userEvent.setup();
    renderPage();
    const withdrawCard = await findWithdrawCard();
    await user.type(withdrawCard.getByLabelText('Amount'), '40');
    expect(screen.queryByText(NOTICE)).toBeNull();
    await user.click(withdrawCard.getByRole('button', { name: 'Request Withdrawal' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Verify your identity before withdrawing: upload a photo ID and a proof of address on your dashboard',
      ),
    );
  });
});
