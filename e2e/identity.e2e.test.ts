import { describe, expect, it } from 'vitest';
import { newUser, signIn, signUp } from '@updown/api-client';
import { TEST_ADMIN } from '@updown/platform/testing';
import { jpegBytes, pdfBytes } from '@updown/accounts/testing';
import { JOURNEY_TIMEOUT_MS, onPath, signInThroughUi, toastShown, useE2eSuite } from './harness/suite';

/**
 * A trader with $100 cannot withdraw before their identity is verified: the wallet says so and the
 * server's refusal shows. They upload a photo ID (a JPEG) and a proof of address (a two-page PDF)
 * from the dashboard's Verification card and submit them; the admin sees both documents drawn in
 * the Verification tab (the picture, and the PDF's pages on canvases), approves, and the trader's
 * withdrawal then goes through and waits in the admin's Withdrawals tab as verified.
 */

const IDENTITY_JOURNEY_TIMEOUT_MS = JOURNEY_TIMEOUT_MS * 2;
const REFUSAL =
  'Verify your identity before withdrawing: upload a photo ID and a proof of address on your dashboard';

describe('identity verification', () => {
  const suite = useE2eSuite();

  it(
    'goes from upload to approval to a withdrawal that goes through',
    async () => {
      const { api } = suite.platform;
      const user = newUser('Verified');
      const { id: userId, accessToken: token } = await signUp(api, user);
      await api.post('/api/wallet/deposit', { amount: 100, account_type: 'real' }, { token });

      const trader = await suite.journey();
      const { page } = trader;
      await signInThroughUi(page, user);
      await page.getByRole('link', { name: 'Wallet' }).first().click();
      await onPath(page, '/wallet');
      const withdraw = page.getByRole('region', { name: 'Withdraw' });
      await withdraw.getByText('Verify your identity to withdraw real funds').waitFor();
      await withdraw.getByLabel('Amount').fill('40');
      await withdraw.getByRole('button', { name: 'Request Withdrawal' }).click();
      await toastShown(page, REFUSAL);
      expect((await api.get('/api/wallet', { token })).real_balance).toBe(100);

      await withdraw.getByRole('link', { name: 'Upload your documents on the dashboard' }).click();
      await onPath(page, '/dashboard');
      const card = page.getByRole('region', { name: 'Verification' });
      await card.getByText('Not started').waitFor();
      await card
        .getByLabel('Photo ID')
        .setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: jpegBytes() });
      await toastShown(page, 'Photo ID uploaded');
      await card
        .getByLabel('Proof of address')
        .setInputFiles({ name: 'bill.pdf', mimeType: 'application/pdf', buffer: pdfBytes(2) });
      await toastShown(page, 'Proof of address uploaded');
      await card.getByLabel('Full legal name').fill('Vera Fide');
      await card.getByLabel('Date of birth').fill('1988-04-12');
      await card.getByRole('button', { name: 'Submit for review' }).click();
      await toastShown(page, 'Submitted for review');
      await card.getByText('Pending review').waitFor();
      await trader.screenshot('pending');

      const admin = await suite.journey();
      await signInThroughUi(admin.page, TEST_ADMIN);
      await admin.page.getByRole('link', { name: 'Admin' }).first().click();
      await onPath(admin.page, '/admin');
      await admin.page.getByRole('tab', { name: 'Verification' }).click();
      const row = admin.page.getByRole('row').filter({ hasText: 'Vera Fide' });
      await row.getByRole('button', { name: 'Review' }).click();
      const review = admin.page.getByRole('region', { name: 'Verification review' });
      // The picture decoded, and both PDF pages drawn.
      const photo = review.getByRole('img', { name: 'Photo ID' });
      await expect
        .poll(() =>
          photo.evaluate(
            (img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth,
          ),
        )
        .toBe(24);
      await expect.poll(() => review.locator('canvas').count(), { timeout: 20_000 }).toBe(2);
      await admin.screenshot('review');
      await review.getByRole('button', { name: 'Approve' }).click();
      await toastShown(admin.page, 'Verification approved');

      await page.reload();
      await card.getByText('Identity verified — withdrawals are open').waitFor();
      await page.getByRole('link', { name: 'Wallet' }).first().click();
      await onPath(page, '/wallet');
      await withdraw.getByText('Verify your identity to withdraw real funds').waitFor({ state: 'detached' });
      await withdraw.getByLabel('Amount').fill('40');
      await withdraw.getByRole('button', { name: 'Request Withdrawal' }).click();
      await toastShown(page, 'Withdrawal request submitted');

      const { accessToken: adminToken } = await signIn(api, TEST_ADMIN);
      const withdrawals = await api.get('/api/admin/withdrawals', { token: adminToken });
      const request = withdrawals.find((r) => r.user_id === userId);
      expect(request).toMatchObject({ amount: 40, status: 'pending', identity_status: 'verified' });
      await trader.finish();
      await admin.finish();
    },
    IDENTITY_JOURNEY_TIMEOUT_MS,
  );
});
