import { describe, expect, it } from 'vitest';
import { newUser, signUp } from '@updown/api-client';
import type { Schemas } from '@updown/schemas/openapi';
import { TEST_ADMIN } from '@updown/platform/testing';
import { onPath, signInThroughUi, useE2eSuite } from './harness/suite';

/** The platform's default cap on one trader's open disputes (DISPUTES_OPEN_PER_TRADER_MAX). */
const OPEN_DISPUTES_MAX = 20;
/** Settlement follows the first tick after the jumped-to expiry. */
const SETTLE_WAIT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 180_000;

describe('a trader flooding the disputes', () => {
  const suite = useE2eSuite();

  it(
    'is capped, and the admin still reaches another trader’s older dispute with "Load more" and the trader filter',
    async () => {
      const { api } = suite.platform;
      const quiet = newUser('Quiet');
      const flooder = newUser('Flooder');
      const { accessToken: quietToken } = await signUp(api, quiet);
      const { accessToken: flooderToken } = await signUp(api, flooder);

      // One-dollar demo trades, settled at once by jumping the platform's clock past their expiry.
      const place = (token: string) =>
        api.post(
          '/api/trades/place',
          { pair: 'BTCUSDT', direction: 'UP', amount: 1, duration: 60, account_type: 'demo' },
          { token },
        );
      const own = await place(quietToken);
      const flooded: Schemas['Trade'][] = [];
      for (let i = 0; i <= OPEN_DISPUTES_MAX; i++) flooded.push(await place(flooderToken));
      const lastExpiryMs = Math.max(...[own, ...flooded].map((trade) => trade.expiry_ts)) * 1000;
      await suite.platform.passExpiry('BTCUSDT', lastExpiryMs);
      // Settled means a result in the history: the active list drops a trade at its expiry already.
      const pendingOf = async (token: string) =>
        (await api.get('/api/trades/history', { token, query: { limit: 100 } })).filter(
          (trade) => trade.status === 'pending',
        ).length;
      await expect
        .poll(async () => (await pendingOf(quietToken)) + (await pendingOf(flooderToken)), {
          timeout: SETTLE_WAIT_MS,
          interval: 500,
        })
        .toBe(0);

      // The quiet trader disputes first; then the flooder files one more than the cap allows.
      const dispute = (token: string, tradeId: string, reason: string) =>
        api.send('post', '/api/trades/{id}/disputes', { reason }, { token, params: { id: tradeId } });
      expect((await dispute(quietToken, own.id, 'My exit price was not the last one')).status).toBe(201);
      for (const trade of flooded.slice(0, OPEN_DISPUTES_MAX)) {
        expect((await dispute(flooderToken, trade.id, 'Wrong again')).status).toBe(201);
      }
      const refused = await dispute(flooderToken, flooded[OPEN_DISPUTES_MAX]!.id, 'And again');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({ code: 'OPEN_DISPUTES_CAP_REACHED' });

      // The admin's first page is all the flooder's; the older dispute is one "Load more" away.
      const admin = await suite.journey();
      const { page } = admin;
      await signInThroughUi(page, TEST_ADMIN);
      await page.goto('/admin?tab=disputes');
      await onPath(page, '/admin');
      await page.getByRole('heading', { name: 'Disputes' }).waitFor();
      const rowsOf = (email: string) => page.getByRole('row').filter({ hasText: email });
      await rowsOf(flooder.email).first().waitFor();
      expect(await rowsOf(flooder.email).count()).toBe(OPEN_DISPUTES_MAX);
      expect(await rowsOf(quiet.email).count()).toBe(0);
      await page.getByText(`${OPEN_DISPUTES_MAX} disputes shown; older ones follow`).waitFor();
      await page.getByRole('button', { name: 'Load more' }).click();
      const older = rowsOf(quiet.email);
      await older.getByText('My exit price was not the last one').waitFor();
      await page.getByText(`${OPEN_DISPUTES_MAX + 1} disputes shown`, { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      await admin.screenshot('admin-disputes-paged');

      // The trader filter finds it on the first page, and the admin can decide it from there.
      await page.getByLabel('Trader', { exact: true }).fill(quiet.email.toUpperCase());
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('1 dispute shown', { exact: true }).waitFor();
      expect(await rowsOf(flooder.email).count()).toBe(0);
      await older.getByLabel('Note').fill('The exit tick is the last one before expiry');
      await older.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('No open disputes', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Clear' }).click();
      await rowsOf(flooder.email).first().waitFor();
      await admin.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
