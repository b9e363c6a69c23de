import { describe, expect, it } from 'vitest';
import { newUser } from '@updown/api-client';
import { PHONE, type Journey } from './harness/browser';
import { JOURNEY_TIMEOUT_MS, onPath, signInThroughUi, useE2eSuite } from './harness/suite';

/** Opens the phone menu and follows one of its links; the desktop navigation is hidden there. */
async function viaMenu(journey: Journey, label: string, pathname: string): Promise<void> {
  const { page } = journey;
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: label, exact: true }).filter({ visible: true }).click();
  await onPath(page, pathname);
}

async function expectNoSidewaysScroll(journey: Journey, screen: string): Promise<void> {
  // Charts and tables size themselves after the first paint: check once the page has settled.
  await journey.page.waitForLoadState('networkidle').catch(() => undefined);
  expect(await journey.scrollsSideways(), `${screen} scrolls sideways at 375 px`).toBe(false);
}

// One platform and browser for both groups below.
const suite = useE2eSuite();

describe('on a phone', () => {
  it(
    'fits /trade, /dashboard and /wallet in 375 px and reaches them from the Menu toggle',
    async () => {
      const user = newUser('Phone');
      await suite.platform.api.post('/api/auth/register', user);
      const journey = await suite.journey(PHONE);
      const { page } = journey;

      await signInThroughUi(page, user);
      await page.locator('.chart-panel__label').getByText('LIVE', { exact: true }).waitFor();
      await expectNoSidewaysScroll(journey, '/trade');
      await journey.screenshot('trade-375');

      await page.getByRole('button', { name: 'Menu' }).click();
      const menuLinks = page.getByRole('link').filter({ visible: true });
      await menuLinks.getByText('Dashboard', { exact: true }).waitFor();
      await menuLinks.getByText('Wallet', { exact: true }).waitFor();
      await journey.screenshot('menu-375');
      await page.getByRole('button', { name: 'Menu' }).click();

      await viaMenu(journey, 'Dashboard', '/dashboard');
      await page.getByText("Here's your trading overview").waitFor();
      await expectNoSidewaysScroll(journey, '/dashboard');
      await journey.screenshot('dashboard-375');

      await viaMenu(journey, 'Wallet', '/wallet');
      await page.getByRole('button', { name: 'Deposit (Mock)' }).waitFor();
      await expectNoSidewaysScroll(journey, '/wallet');
      await journey.screenshot('wallet-375');
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );
});

describe('route guards', () => {
  it(
    'sends an anonymous visitor from /trade to /auth without getting stuck on Loading...',
    async () => {
      const journey = await suite.journey();
      const { page } = journey;
      await page.goto('/trade');
      await onPath(page, '/auth');
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      await page.getByText('Loading...', { exact: true }).waitFor({ state: 'detached' });

      // A stored token the server no longer accepts: the session loads, fails, and lets go.
      await page.evaluate(
        "localStorage.setItem('access_token', 'expired'); localStorage.setItem('refresh_token', 'spent')",
      );
      await page.goto('/trade');
      await onPath(page, '/auth');
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      await page.getByText('Loading...', { exact: true }).waitFor({ state: 'detached' });
      expect(await page.evaluate("localStorage.getItem('access_token')")).toBeNull();

      await page.goto('/leaderboard');
      await page.getByRole('heading', { name: 'Daily Leaderboard', exact: true }).waitFor();
      await journey.screenshot('leaderboard');
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'keeps a trader out of /admin and logs out through /login to /auth',
    async () => {
      const user = newUser('Plain');
      await suite.platform.api.post('/api/auth/register', user);
      const journey = await suite.journey();
      const { page } = journey;

      await signInThroughUi(page, user);
      expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await page.goto('/admin');
      await onPath(page, '/trade');

      const before = journey.visited.length;
      await page.getByRole('button', { name: 'Logout' }).click();
      await onPath(page, '/auth');
      expect(journey.visited.slice(before)).toContain('/login');
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      expect(await page.evaluate("localStorage.getItem('access_token')")).toBeNull();

      await page.goto('/trade');
      await onPath(page, '/auth');
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
