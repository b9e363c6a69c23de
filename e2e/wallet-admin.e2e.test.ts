import { describe, expect, it } from 'vitest';
import { newUser } from './harness/api';
import { TEST_ADMIN } from '@updown/platform/testing';
import { JOURNEY_TIMEOUT_MS, onPath, signInThroughUi, toastShown, useE2eSuite } from './harness/suite';

describe('money in and out', () => {
  const suite = useE2eSuite();

  it(
    'deposits $100 to Real with the mock provider and gets the $50 first-deposit bonus',
    async () => {
      const { api } = suite.platform;
      const user = newUser('Depositor');
      await api.register(user);
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

      const wallet = await api.wallet(await api.login(user.email, user.password));
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
      const token = await api.signUp(user);
      const { id: userId } = await api.me(token);
      await api.deposit(token, 100, 'real');
      const adminToken = await api.login(TEST_ADMIN.email, TEST_ADMIN.password);
      await api.verifyIdentity(token, adminToken, user.name);
      const { request } = await api.withdraw(token, 40, 'real');
      expect(request).toMatchObject({ status: 'pending', amount: 40 });

      const journey = await suite.journey();
      const { page } = journey;
      await signInThroughUi(page, TEST_ADMIN);
      await page.getByRole('link', { name: 'Admin' }).first().click();
      await onPath(page, '/admin');
      await page.getByRole('heading', { name: 'Admin Panel' }).waitFor();

      await page.getByRole('tab', { name: 'Withdrawals' }).click();
      await page.getByRole('heading', { name: 'Withdrawal Requests' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: userId.slice(0, 8) });
      await row.getByText('$40.00').waitFor();
      await row.getByText('pending', { exact: true }).waitFor();
      await journey.screenshot('admin');

      await row.getByRole('button', { name: 'Approve' }).click();
      await toastShown(page, 'Withdrawal approved successfully');
      await row.getByRole('button', { name: 'Approve' }).waitFor({ state: 'detached' });

      const decided = (await api.adminWithdrawals(adminToken)).find((r) => r.id === request!.id);
      expect(decided?.status).toBe('approved');
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
