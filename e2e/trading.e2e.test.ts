import { describe, expect, it } from 'vitest';
import { newUser, type NewUser } from '@updown/api-client';
import type { Page } from 'playwright-core';
import { UI_TIMEOUT_MS, type Journey } from './harness/browser';
import {
  JOURNEY_TIMEOUT_MS,
  onPath,
  submitLogin,
  toastShown,
  useE2eSuite,
  placeUpTradeThroughUi,
} from './harness/suite';

const PAIRS = ['BTC/USDT', 'EUR/USD', 'GBP/USD', 'USD/JPY', 'XAU/USD', 'ETH/USD'];

/** From the landing page to a new account, meeting both checkbox errors on the way. */
async function registerThroughUi(journey: Journey, user: NewUser): Promise<void> {
  const { page } = journey;
  await page.goto('/');
  await page.getByRole('button', { name: 'Join for free!' }).waitFor();
  await journey.screenshot('landing');
  await page.getByRole('button', { name: 'Register' }).click();
  await onPath(page, '/auth');

  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.getByRole('heading', { name: 'Create Account' }).waitFor();
  await page.getByLabel('Full Name').fill(user.name);
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await journey.screenshot('auth');

  const createAccount = page.getByRole('button', { name: 'Create Account' });
  await createAccount.click();
  await toastShown(page, 'You must be 18+ years old to register');
  await page.getByLabel('I confirm that I am 18 years or older').check();
  await createAccount.click();
  await toastShown(page, 'You must accept the Terms & Conditions');
  await page.getByLabel('I accept the Terms & Conditions and Privacy Policy').check();
  await createAccount.click();
  await toastShown(page, 'Registration successful! Please login.');
}

/** The pair buttons, and the chart label with a live price. */
async function expectLiveMarket(page: Page): Promise<void> {
  for (const pair of PAIRS) await page.getByRole('button', { name: pair, exact: true }).waitFor();
  expect(await page.getByRole('button', { name: 'BTC/USDT' }).getAttribute('aria-pressed')).toBe('true');
  const label = page.locator('.chart-panel__label');
  await label.getByText('LIVE', { exact: true }).waitFor();
  await expect
    .poll(() => label.locator('.chart-panel__price').textContent(), { timeout: UI_TIMEOUT_MS })
    .toMatch(/^\d[\d,]*\.\d{2}$/);
}

describe('a new trader', () => {
  const suite = useE2eSuite();

  it(
    'registers, signs in, places a demo UP trade and sees it settle when the clock passes expiry',
    async () => {
      const { api } = suite.platform;
      const journey = await suite.journey();
      const { page } = journey;
      const user = newUser('Trader');

      await registerThroughUi(journey, user);
      await submitLogin(page, user);
      await onPath(page, '/trade');
      await expectLiveMarket(page);

      const demo = page.getByRole('button', { name: 'Demo', exact: true });
      expect(await demo.getAttribute('aria-pressed')).toBe('true');
      await placeUpTradeThroughUi(page);
      const activeBar = page.getByRole('region', { name: 'Active trades', exact: true });
      await activeBar.getByText('BTCUSDT').waitFor();
      await activeBar.getByText('$10.00').waitFor();
      await expect.poll(() => activeBar.textContent(), { timeout: 10_000 }).toMatch(/00h 00m [0-5]\ds/);
      await journey.screenshot('trade');

      const token = (await page.evaluate<string | null>("localStorage.getItem('access_token')"))!;
      const [trade] = await api.get('/api/trades/active', { token });
      expect(trade).toMatchObject({
        pair: 'BTCUSDT',
        direction: 'UP',
        amount: 10,
        account_type: 'demo',
        status: 'pending',
      });
      // About 61 s of platform time in a moment: no waiting for the trade to expire.
      await suite.platform.passExpiry('BTCUSDT', trade!.expiry_ts * 1000);

      await activeBar.waitFor({ state: 'detached' });
      // The active list drops a trade at its expiry, before settlement has decided it: the
      // history says pending until then.
      const settledTrade = async () => (await api.get('/api/trades/history', { token }))[0];
      await expect
        .poll(async () => (await settledTrade())?.status, { timeout: 15_000 })
        .toMatch(/^(won|lost|draw)$/);
      const settled = await settledTrade();
      expect(settled).toMatchObject({ id: trade!.id });

      await page.getByRole('tab', { name: 'History' }).click();
      await page.getByRole('heading', { name: 'Recent Trades' }).waitFor();
      const item = page.locator('.trade-history__item').first();
      await item.getByText(settled!.status, { exact: true }).waitFor();
      await item.getByText('BTCUSDT').waitFor();
      const pnl = settled!.pnl!;
      await item.getByText(`${pnl > 0 ? '+' : ''}${pnl.toFixed(2)}`).waitFor();

      await page.getByRole('link', { name: 'Dashboard' }).first().click();
      await page.getByRole('heading', { name: `Welcome back, ${user.name}!` }).waitFor();
      await expect.poll(() => page.getByTestId('total-trades').textContent(), { timeout: 10_000 }).toBe('1');
      const wallet = await api.get('/api/wallet', { token });
      await expect
        .poll(() => page.getByTestId('demo-balance').textContent())
        .toBe(`$${wallet.demo_balance.toFixed(2)}`);
      await journey.screenshot('dashboard');
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
