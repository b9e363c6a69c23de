import { describe, expect, it } from 'vitest';
import { newUser, signIn, signUp } from '@updown/api-client';
import { TEST_ADMIN } from '@updown/platform/testing';
import { verifyIdentity } from './harness/identity';
import { JOURNEY_TIMEOUT_MS, onPath, signInThroughUi, toastShown, useE2eSuite } from './harness/suite';

describe('money in and out', () => {
  const suite = useE2eSuite();

  it(
    'deposits $100 to Real with the mock provider and gets the $50 first-deposit bonus',
    async () => {
      const { api } = suite.platform;
      const user = newUser('Depositor');
      await api.post('/api/auth/register', user);
      const journey = await suite.journey();
      const { page } = journey;

      await signInThroughUi(page, user);
      await page.getByRole('link', { name: 'Wallet' }).first().click();
      await onPath(page, '/wallet');
      await page.getByText('Welcome Bonus Available!').waitFor();
      await expect
        .poll(() => page.getByTestId('real-balance').textContent(), { timeout: 10_000 })
        .toBe('$0.00');

      const deposit = page.getByRole('region', { name: 'Deposit' });
      expect(await deposit.getByRole('button', { name: 'Real' }).getAttribute('aria-pressed')).toBe('true');
      expect(await deposit.getByLabel('Amount ($)').inputValue()).toBe('100');
      await deposit.getByRole('button', { name: 'Deposit (Mock)' }).click();
      await toastShown(page, 'Deposit successful!');

      await expect
        .poll(() => page.getByTestId('real-balance').textContent(), { timeout: 10_000 })
        .toBe('$100.00');
      const bonus = page.getByRole('region', { name: 'Active bonus' });
      await bonus.getByText('50% First Deposit').waitFor();
      await bonus.getByText('$50.00', { exact: true }).waitFor();
      await page.getByText('Welcome Bonus Available!').waitFor({ state: 'detached' });
      await page.getByRole('cell', { name: 'deposit', exact: true }).first().waitFor();

      const { accessToken: token } = await signIn(api, user);
      const wallet = await api.get('/api/wallet', { token });
      expect(wallet).toMatchObject({ real_balance: 100, bonus_status: 'active', bonus_amount: 50 });
      await journey.screenshot('wallet');
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'lets the admin approve a pending withdrawal from the Withdrawals tab',
    async () => {
      const { api } = suite.platform;
      const user = newUser('Withdrawer');
      const trader = await signUp(api, user);
      const token = trader.accessToken;
      await api.post('/api/wallet/deposit', { amount: 100, account_type: 'real' }, { token });
      const { accessToken: adminToken } = await signIn(api, TEST_ADMIN);
      await verifyIdentity(api, trader, adminToken);
      const { request } = await api.post(
        '/api/wallet/withdraw',
        { amount: 40, account_type: 'real' },
        { token },
      );
      expect(request).toMatchObject({ status: 'pending', amount: 40 });

      const journey = await suite.journey();
      const { page } = journey;
      await signInThroughUi(page, TEST_ADMIN);
      await page.getByRole('link', { name: 'Admin' }).first().click();
      await onPath(page, '/admin');
      await page.getByRole('heading', { name: 'Admin Panel' }).waitFor();

      await page.getByRole('tab', { name: 'Withdrawals' }).click();
      await page.getByRole('heading', { name: 'Withdrawal Requests' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: trader.id.slice(0, 8) });
      await row.getByText('$40.00').waitFor();
      await row.getByText('pending', { exact: true }).waitFor();
      await journey.screenshot('admin');

      await row.getByRole('button', { name: 'Approve' }).click();
      await toastShown(page, 'Withdrawal approved successfully');
      await row.getByRole('button', { name: 'Approve' }).waitFor({ state: 'detached' });

      const withdrawals = await api.get('/api/admin/withdrawals', { token: adminToken });
      const decided = withdrawals.find((r) => r.id === request!.id);
      expect(decided?.status).toBe('approved');
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
