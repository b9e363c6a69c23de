import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newUser } from '@updown/api-client';
import type { Schemas } from '@updown/schemas/openapi';
import { TEST_ADMIN } from '@updown/platform/testing';
import { UI_TIMEOUT_MS } from './harness/browser';
import {
  accessToken,
  onPath,
  signInThroughUi,
  toastShown,
  useE2eSuite,
  placeUpTradeThroughUi,
} from './harness/suite';

/** The shortest trade there is, waited out in real time: the receipt proves what really happened. */
const TRADE_SECONDS = 60;
/** Settlement follows the first tick after expiry; a busy machine may take a while longer. */
const SETTLE_WAIT_MS = (TRADE_SECONDS + 45) * 1000;
/** The checkpoint covering the exit is signed within a second here (CHECKPOINT_INTERVAL_MS). */
const RECEIPT_WAIT_MS = 30_000;
/** The console asks for the trader's disputes every 15 s. */
const NOTIFICATION_WAIT_MS = 40_000;
/** One journey: a real minute of trading, then the receipt, a dispute and its resolution. */
const RECEIPT_JOURNEY_TIMEOUT_MS = 300_000;
const VERIFY_CLI = path.resolve(import.meta.dirname, '../verify/src/cli.js');

describe('a settled trade', () => {
  const suite = useE2eSuite();

  it(
    'has a receipt that verifies in the browser, can be disputed, and the admin’s decision reaches the trader',
    async () => {
      const { api } = suite.platform;
      const user = newUser('Receipt');
      await api.post('/api/auth/register', user);
      const trader = await suite.journey();
      const { page } = trader;

      // A 60 s demo UP trade, waited out.
      await signInThroughUi(page, user);
      await placeUpTradeThroughUi(page);
      const token = await accessToken(page);
      const [placed] = await api.get('/api/trades/active', { token });
      expect(placed).toMatchObject({ pair: 'BTCUSDT', direction: 'UP', amount: 10, account_type: 'demo' });
      let settled: Schemas['Trade'] | undefined;
      await expect
        .poll(
          async () => {
            settled = (await api.get('/api/trades/history', { token })).find(
              (trade) => trade.id === placed!.id,
            );
            return settled?.status;
          },
          { timeout: SETTLE_WAIT_MS, interval: 1000 },
        )
        .toMatch(/^(won|lost|draw|void)$/);

      // The receipt, from the History tab.
      await page.getByRole('tab', { name: 'History' }).click();
      const item = page.locator('.trade-history__item').first();
      await item.getByText(settled!.status, { exact: true }).waitFor();
      await item.getByRole('button', { name: 'Receipt' }).click();
      const dialog = page.getByRole('dialog', { name: 'Receipt' });
      // While the covering checkpoint is unsigned the dialog shows the server's 409 and asks again.
      await dialog.getByRole('button', { name: 'Verify' }).waitFor({ timeout: RECEIPT_WAIT_MS });
      await dialog.getByText('BTCUSDT', { exact: true }).waitFor();
      await dialog.getByText('$10.00', { exact: true }).waitFor();
      await dialog.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} UTC$/).waitFor();
      await dialog.getByTestId('receipt-chart').locator('canvas').first().waitFor();

      // Verified here, with the browser's Web Crypto against the published key set.
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await dialog.getByText('Receipt verified', { exact: true }).waitFor();
      const steps = dialog.getByRole('list', { name: 'Verification steps' }).getByRole('listitem');
      expect(await steps.count()).toBe(11);
      // The key set's thumbprint, which a trader compares with the published one and pins.
      const thumbprint = await dialog.locator('.receipt-thumbprint code').innerText();
      expect(thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await trader.screenshot('receipt');

      // The download carries the key set, so the command-line verifier needs nothing else.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`receipt-${placed!.id}.json`);
      const file = await download.path();
      const saved = JSON.parse(await readFile(file, 'utf8')) as {
        receipt: { tradeId: string };
        keys: { keys: unknown[] };
      };
      expect(saved.receipt.tradeId).toBe(placed!.id);
      expect(saved.keys.keys.length).toBeGreaterThan(0);
      // Against the key set the file brings along, the verifier vouches for nothing: exit 3.
      const unpinned = spawnSync(process.execPath, [VERIFY_CLI, file], { encoding: 'utf8' });
      expect(unpinned.status, `${unpinned.stdout}\n${unpinned.stderr}`).toBe(3);
      expect(unpinned.stdout).toContain("NOT verified against the platform's key");
      const cli = spawnSync(process.execPath, [VERIFY_CLI, file, '--pin', thumbprint], { encoding: 'utf8' });
      expect(cli.status, `${cli.stdout}\n${cli.stderr}`).toBe(0);

      // A dispute: the server replays the settlement from the stored ticks at once.
      await dialog.getByRole('button', { name: 'Dispute' }).click();
      await dialog.getByLabel('Reason').fill('I expected the exit price to be different');
      await dialog.getByText('41/500').waitFor();
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await dialog.getByText('settlement confirmed', { exact: true }).waitFor();
      await dialog.getByRole('list', { name: 'Replay steps' }).waitFor();
      await trader.screenshot('receipt-dispute');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await item.getByText('Dispute open', { exact: true }).waitFor();

      // The admin confirms it from the Disputes tab.
      const admin = await suite.journey();
      await signInThroughUi(admin.page, TEST_ADMIN);
      await admin.page.goto('/admin?tab=disputes');
      await onPath(admin.page, '/admin');
      await admin.page.getByRole('heading', { name: 'Disputes' }).waitFor();
      const row = admin.page.getByRole('row').filter({ hasText: user.email });
      await row.getByText('I expected the exit price to be different').waitFor();
      await row.getByRole('button', { name: 'Show steps' }).click();
      await admin.page.getByRole('list', { name: 'Replay steps' }).waitFor();
      expect(await row.getByRole('button', { name: 'Correct' }).isDisabled()).toBe(true);
      await row.getByLabel('Note').fill('The stored ticks match the settlement');
      await admin.screenshot('admin-disputes');
      await row.getByRole('button', { name: 'Confirm' }).click();
      await toastShown(admin.page, 'Dispute confirmed');
      await row.waitFor({ state: 'detached' });

      // The trader's console notices on its next poll, and the history shows the outcome.
      await page
        .locator('[data-sonner-toast]')
        .getByText('Dispute resolved: settlement confirmed', { exact: true })
        .waitFor({ timeout: NOTIFICATION_WAIT_MS });
      await item.getByText('Dispute confirmed', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      const disputes = await api.get('/api/disputes', { token });
      expect(disputes).toMatchObject([
        { trade_id: placed!.id, status: 'confirmed', replay: { verdict: 'confirmed' } },
      ]);

      await admin.finish();
      await trader.finish();
    },
    RECEIPT_JOURNEY_TIMEOUT_MS,
  );
});
