import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newUser } from '@updown/api-client';
import type { OffsetClock } from '@updown/runtime';
import { TOTP_STEP_MS } from '@updown/platform/testing';
import { FakeGoogle } from './harness/fake-google';
import {
  accessToken,
  JOURNEY_TIMEOUT_MS,
  onPath,
  signInThroughUi,
  submitLogin,
  toastShown,
  useE2eSuite,
} from './harness/suite';

/**
 * How long a sign-in or a password check covers a sensitive action such as setting up 2FA: the
 * gateway's `STEP_UP_TTL_MS` (5 minutes), which its package does not export to tests.
 */
const STEP_UP_TTL_MS = 5 * 60 * 1000;

/** What the Security card tells an account made by Google sign-in once a password is asked for. */
const GOOGLE_NOTE =
  'Signed up with Google? Your account has no password to confirm: log out, sign in again with Google, and choose Enable 2FA within 5 minutes.';

let google: FakeGoogle | undefined;
beforeAll(async () => {
  google = await FakeGoogle.start();
});
afterAll(async () => {
  await google?.close();
});

/** The authenticator app: codes for the platform's own time, as a phone in sync with it shows. */
function authenticator(clock: OffsetClock) {
  return (secret: string) => generate({ secret, epoch: Math.floor(clock.nowMs() / 1000) });
}

/** Opens the dashboard from the header and waits for the Security card to say 2FA is off. */
async function openSecurityCard(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await onPath(page, '/dashboard');
  await page.getByText('Two-factor authentication: OFF').waitFor();
}

/** The 2FA password field (the password change form's fields have other labels). */
function passwordField(page: Page) {
  return page.getByLabel('Password', { exact: true });
}

/** Scans the QR code (reads the secret key shown beside it) and confirms with a first code. */
async function confirmSetup(page: Page, code: (secret: string) => Promise<string>): Promise<string> {
  const secretKey = page.getByLabel('Secret key');
  await secretKey.waitFor();
  await page.locator('img[src^="data:image/png"]').waitFor();
  const secret = (await secretKey.textContent())!.trim();
  await page.getByLabel('Verification code').fill(await code(secret));
  await page.getByRole('button', { name: 'Turn on 2FA' }).click();
  await toastShown(page, '2FA enabled');
  await page.getByText('Two-factor authentication: ON').waitFor();
  return secret;
}

describe('two-factor sign-in', () => {
  const suite = useE2eSuite({ env: () => google!.env() });

  it(
    'turns 2FA on from the dashboard right after sign-in without the password, asks for a code at the next sign-in, and turns it off with both',
    async () => {
      const { api, clock } = suite.platform;
      const user = newUser('Guarded');
      await api.post('/api/auth/register', user);
      const journey = await suite.journey();
      const { page } = journey;
      const code = authenticator(clock);

      await signInThroughUi(page, user);
      await openSecurityCard(page);
      // The sign-in a moment ago is the step-up setting up an authenticator needs.
      await page.getByRole('button', { name: 'Enable 2FA' }).click();
      await page.getByLabel('Secret key').waitFor();
      await journey.screenshot('dashboard-2fa-setup');
      expect(await passwordField(page).count()).toBe(0);
      const secret = await confirmSetup(page, code);

      await page.getByRole('button', { name: 'Logout' }).click();
      await onPath(page, '/auth');
      await submitLogin(page, user);
      await toastShown(page, '2FA verification required');
      await onPath(page, '/2fa-verify');
      await page.getByRole('heading', { name: 'Two-Factor Authentication' }).waitFor();
      await page.getByText('Enter the 6-digit code from your authenticator app').waitFor();
      await journey.screenshot('2fa-verify');

      // The code that turned 2FA on is spent; the next one comes 30 s later on the platform's clock.
      clock.advance(TOTP_STEP_MS);
      await page.getByRole('textbox').fill(await code(secret));
      await page.getByRole('button', { name: 'Verify' }).click();
      await toastShown(page, '2FA verification successful!');
      await onPath(page, '/trade');

      // Turning it off takes the password and a code the sign-in did not spend.
      await page.getByRole('link', { name: 'Dashboard' }).first().click();
      await page.getByText('Two-factor authentication: ON').waitFor();
      const activity = page.getByRole('list', { name: 'Recent security activity' });
      await activity.getByText('Two-factor authentication turned on', { exact: true }).waitFor();
      clock.advance(TOTP_STEP_MS);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByLabel('Verification code').fill(await code(secret));
      await page.getByRole('button', { name: 'Turn off 2FA' }).click();
      await toastShown(page, '2FA disabled');
      await page.getByText('Two-factor authentication: OFF').waitFor();
      await activity.getByText('Two-factor authentication turned off', { exact: true }).waitFor();
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'asks for the password once the sign-in is more than 5 minutes old, then turns 2FA on with it',
    async () => {
      const { api, clock } = suite.platform;
      const user = newUser('Later');
      await api.post('/api/auth/register', user);
      const journey = await suite.journey();
      const { page } = journey;

      await signInThroughUi(page, user);
      await openSecurityCard(page);
      clock.advance(STEP_UP_TTL_MS + 1000);
      await page.getByRole('button', { name: 'Enable 2FA' }).click();
      await passwordField(page).waitFor();
      await page.getByText(GOOGLE_NOTE).waitFor();
      await journey.screenshot('dashboard-2fa-password');
      expect(await page.getByLabel('Secret key').count()).toBe(0);
      await passwordField(page).fill(user.password);
      await page.getByRole('button', { name: 'Continue' }).click();
      await confirmSetup(page, authenticator(clock));

      const me = await api.get('/api/auth/me', { token: await accessToken(page) });
      expect(me.twofa_enabled).toBe(true);
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'lets an account made by Google sign-in turn 2FA on after signing in with Google again, as the card tells it to',
    async () => {
      const { api, clock } = suite.platform;
      const account = FakeGoogle.newAccount('Googler');
      const journey = await suite.journey();
      const { page } = journey;

      await google!.signIn(page, account, clock.nowMs());
      await openSecurityCard(page);
      // Too late for the sign-in to count, and there is no password to give: the card says what to do.
      clock.advance(STEP_UP_TTL_MS + 1000);
      await page.getByRole('button', { name: 'Enable 2FA' }).click();
      await page.getByText(GOOGLE_NOTE).waitFor();
      await journey.screenshot('dashboard-2fa-google-account');

      await page.getByRole('button', { name: 'Logout' }).click();
      await onPath(page, '/auth');
      await google!.signIn(page, account, clock.nowMs());
      await openSecurityCard(page);
      await page.getByRole('button', { name: 'Enable 2FA' }).click();
      await page.getByLabel('Secret key').waitFor();
      expect(await passwordField(page).count()).toBe(0);
      await confirmSetup(page, authenticator(clock));

      const me = await api.get('/api/auth/me', { token: await accessToken(page) });
      expect(me).toMatchObject({ email: account.email, twofa_enabled: true });
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
