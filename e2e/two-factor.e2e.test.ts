import { generate } from 'otplib';
import { describe, it } from 'vitest';
import { TOTP_STEP_MS } from '@updown/platform/testing';
import { newUser } from './harness/api';
import {
  JOURNEY_TIMEOUT_MS,
  onPath,
  signInThroughUi,
  submitLogin,
  toastShown,
  useE2eSuite,
} from './harness/suite';

describe('two-factor sign-in', () => {
  const suite = useE2eSuite();

  it(
    'turns 2FA on from the dashboard with the password first, asks for a code at the next sign-in, and turns it off with both',
    async () => {
      const { api, clock } = suite.platform;
      const user = newUser('Guarded');
      await api.register(user);
      const journey = await suite.journey();
      const { page } = journey;
      // The authenticator app: codes for the platform's own time, as a phone in sync with it shows.
      const code = (secret: string) => generate({ secret, epoch: Math.floor(clock.now() / 1000) });

      await signInThroughUi(page, user);
      await page.getByRole('link', { name: 'Dashboard' }).first().click();
      await onPath(page, '/dashboard');
      await page.getByText('Two-factor authentication: OFF').waitFor();
      await page.getByRole('button', { name: 'Enable 2FA' }).click();
      // Setting up an authenticator is a sensitive action: the password comes first (the step-up).
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Continue' }).click();

      const secretKey = page.getByLabel('Secret key');
      await secretKey.waitFor();
      await page.locator('img[src^="data:image/png"]').waitFor();
      const secret = (await secretKey.textContent())!.trim();
      await journey.screenshot('dashboard-2fa-setup');
      await page.getByLabel('Verification code').fill(await code(secret));
      await page.getByRole('button', { name: 'Turn on 2FA' }).click();
      await toastShown(page, '2FA enabled');
      await page.getByText('Two-factor authentication: ON').waitFor();

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
});
