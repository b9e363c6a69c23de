import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, signIn, signUp, type ApiClient, type NewUser } from '@updown/api-client';
import type { BodyOf, Schemas } from '@updown/schemas/openapi';
import { TEST_ADMIN } from '@updown/platform/testing';
import { startFakeExchange, type FakeExchange } from '@updown/price-ingest/testing';
import type { Page } from 'playwright-core';
import { onPath, placeUpTradeThroughUi, signInThroughUi, toastShown, useE2eSuite } from './harness/suite';

/**
 * An admin caps BTCUSDT's UP exposure at $20 and skews its payout; a trader's real UP trade makes
 * UP pay less than DOWN, and a second one that would cross the cap is refused with the server's
 * reason. BTCUSDT runs on a local fake of Binance whose price the test sets, so the first trade
 * wins for sure: the house's loss trips the $1 loss breaker, the trader's real UP and DOWN are
 * disabled while demo stays open, and the admin resumes the pair from the Risk tab. Last, the
 * admin allows the trader one open real trade from the Users tab, and a second one is refused.
 */

/** The pairs poll (2 s), a history backfill and the first ticks of the new feed. */
const SWITCH_WAIT_MS = 30_000;
/** The console asks for the pairs every 3 s and the admin's Risk tab for its overview every 2 s. */
const POLL_WAIT_MS = 15_000;
/** Settlement follows the first tick after the expiry the clock jumps past. */
const SETTLE_WAIT_MS = 30_000;
const RISK_JOURNEY_TIMEOUT_MS = 240_000;

const ENTRY_PRICE = 97_250.5;
/** Above the entry at expiry: the trader's UP trade wins and the house pays $8.00. */
const EXIT_PRICE = 97_300;
const SUSPENDED_NOTICE = 'Real trading on BTCUSDT is suspended by risk controls; demo trading is still open';

let binance: FakeExchange | undefined;
let pump: ReturnType<typeof setInterval> | undefined;
const prices = { binance: ENTRY_PRICE };

beforeAll(async () => {
  binance = await startFakeExchange('binance', { symbols: ['BTC/USDT'] });
  // An hour of flat minutes for the chart's history.
  const minuteSec = Math.floor(Date.now() / 60_000) * 60;
  binance.setCandles(
    'BTC/USDT',
    Array.from({ length: 60 }, (_, i) => ({
      bucketStartSec: minuteSec - (60 - i) * 60,
      open: ENTRY_PRICE,
      high: ENTRY_PRICE + 10,
      low: ENTRY_PRICE - 10,
      close: ENTRY_PRICE,
    })),
  );
  pump = setInterval(() => binance!.tick('BTC/USDT', prices.binance), 200);
});
afterAll(async () => {
  clearInterval(pump);
  await binance?.close();
});

/** The refusal the API gives a placement, for comparing with what the console showed. */
async function refusalOf(
  api: ApiClient,
  token: string,
  body: BodyOf<'/api/trades/place', 'post'>,
): Promise<{ status: number } & Partial<Schemas['ErrorResponse']>> {
  const answer = await api.send('post', '/api/trades/place', body, { token, idempotencyKey: randomUUID() });
  return { status: answer.status, ...(answer.body as Partial<Schemas['ErrorResponse']> | undefined) };
}

/** Opens a pair's risk settings in the Risk tab, fills the given fields (by label) and saves them. */
async function editPairRiskThroughUi(
  page: Page,
  symbol: string,
  fields: Record<string, string>,
): Promise<void> {
  const row = page.getByRole('row').filter({ hasText: symbol }).first();
  await row.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: `Risk settings of ${symbol}` });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: 'Save Risk Settings' }).click();
  await toastShown(page, 'Risk settings updated');
}

/** Opens a trader's limits in the Users tab, fills the given fields (by label) and saves them. */
async function setTraderLimitsThroughUi(
  page: Page,
  user: Pick<NewUser, 'name' | 'email'>,
  fields: Record<string, string>,
): Promise<void> {
  await page.getByRole('row').filter({ hasText: user.email }).getByRole('button', { name: 'Limits' }).click();
  const form = page.getByRole('form', { name: `Limits of ${user.name}` });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: 'Save Limits' }).click();
  await toastShown(page, 'Trader limits updated');
}

describe('risk controls', () => {
  const suite = useE2eSuite({
    env: () => ({ EXCHANGE_ENDPOINTS: JSON.stringify({ BINANCE: binance!.endpoints }) }),
  });

  it(
    'skews the payout, refuses trades over the exposure cap and the trader cap, suspends real trading after a loss and resumes it',
    async () => {
      const { api } = suite.platform;
      const btc = async () => (await api.get('/api/market/pairs')).find((pair) => pair.symbol === 'BTCUSDT')!;

      // Set-up the journey is not about: BTCUSDT on the fake Binance, whose price the test sets.
      const { accessToken: adminToken } = await signIn(api, TEST_ADMIN);
      await api.put(
        '/api/admin/pairs/{symbol}/feed',
        { provider: 'BINANCE', provider_symbol: 'BTC/USDT' },
        { token: adminToken, params: { symbol: 'BTCUSDT' } },
      );
      await expect
        .poll(async () => (await btc()).provider, { timeout: SWITCH_WAIT_MS, interval: 500 })
        .toBe('BINANCE');

      // The admin caps UP's exposure at $20, skews the heavier side by up to 10 points (all of
      // them from a $10 imbalance) and arms the loss breaker at $1.
      const admin = await suite.journey();
      const adminPage = admin.page;
      await signInThroughUi(adminPage, TEST_ADMIN);
      await adminPage.goto('/admin?tab=risk');
      await onPath(adminPage, '/admin');
      const riskRow = adminPage.getByRole('row').filter({ hasText: 'BTCUSDT' }).first();
      await editPairRiskThroughUi(adminPage, 'BTCUSDT', {
        'UP exposure cap ($)': '20',
        'Max skew (points)': '10',
        'Full skew at imbalance ($)': '10',
        'Loss limit ($)': '1',
      });
      await riskRow.getByText('$0.00 / $20.00 (0.0%)').waitFor();

      // A trader with real money sees both directions pay 80% on a balanced book.
      const user = newUser('Risk');
      const { accessToken: token } = await signUp(api, user);
      await api.post('/api/wallet/deposit', { amount: 100, account_type: 'real' }, { token });
      // The first deposit's $50 bonus would cap a real stake at $10 (20% of it): not the subject here.
      await api.post('/api/wallet/cancel-bonus', undefined, { token });
      const trader = await suite.journey();
      const { page } = trader;
      await signInThroughUi(page, user);
      await page.getByText('97250.50').first().waitFor({ timeout: SWITCH_WAIT_MS });
      await page.getByRole('button', { name: 'Real', exact: true }).click();
      await page.getByTestId('payout-up').getByText('Payout 80%').waitFor();
      await page.getByTestId('payout-down').getByText('Payout 80%').waitFor();

      // A real $10 UP trade at 80%: UP is now the heavier side by $10, so it pays 10 points less.
      await placeUpTradeThroughUi(page);
      const [placed] = await api.get('/api/trades/active', { token });
      expect(placed).toMatchObject({ pair: 'BTCUSDT', direction: 'UP', amount: 10, account_type: 'real' });
      await page.getByTestId('payout-up').getByText('Payout 70%').waitFor({ timeout: POLL_WAIT_MS });
      await expect(page.getByTestId('payout-down').textContent()).resolves.toBe('Payout 80%');
      await trader.screenshot('risk-skewed-payout');

      // $20 more on UP at 70% would take UP's exposure to $8 + $14 = $22, over the $20 cap.
      const refused = await refusalOf(api, token, {
        pair: 'BTCUSDT',
        direction: 'UP',
        amount: 20,
        duration: 60,
        account_type: 'real',
        payout_pct: 70,
      });
      expect(refused).toMatchObject({ status: 409, code: 'EXPOSURE_CAP_REACHED' });
      await page.getByLabel('Amount ($)').fill('20');
      await page.getByRole('button', { name: /^\W*UP$/ }).click();
      await toastShown(page, refused.detail!);
      await expect(api.get('/api/trades/active', { token })).resolves.toHaveLength(1);

      // The admin sees the first trade's exposure against the cap, and UP's skewed payout.
      await riskRow.getByText('$8.00 / $20.00 (40.0%)').waitFor({ timeout: POLL_WAIT_MS });
      await riskRow.getByText('Payout 70% · 1 open · $10.00 staked').waitFor();
      await admin.screenshot('risk-exposure');

      // The price rises and the trade wins: the house's $8 loss is below the $1 limit.
      prices.binance = EXIT_PRICE;
      await suite.platform.passExpiry('BTCUSDT', placed!.expiry_ts * 1000);
      await expect
        .poll(
          async () =>
            (await api.get('/api/trades/history', { token })).find((t) => t.id === placed!.id)?.status,
          { timeout: SETTLE_WAIT_MS, interval: 500 },
        )
        .toBe('won');
      await expect
        .poll(async () => (await btc()).real_trading, { timeout: SETTLE_WAIT_MS, interval: 500 })
        .toBe('suspended');

      // Real UP and DOWN are disabled with the notice; demo trading goes on.
      await page.getByText(SUSPENDED_NOTICE, { exact: true }).waitFor({ timeout: POLL_WAIT_MS });
      await expect(page.getByRole('button', { name: /^\W*UP$/ }).isDisabled()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: /^\W*DOWN$/ }).isDisabled()).resolves.toBe(true);
      await trader.screenshot('risk-trader-suspended');
      await page.getByRole('button', { name: 'Demo', exact: true }).click();
      await page.getByText(SUSPENDED_NOTICE, { exact: true }).waitFor({ state: 'detached' });
      await placeUpTradeThroughUi(page);

      // The admin sees why the pair is suspended and resumes it.
      await riskRow.getByText('Suspended', { exact: true }).waitFor({ timeout: POLL_WAIT_MS });
      await riskRow.getByText('Today -$8.00').waitFor();
      await admin.screenshot('risk-admin-suspended');
      await riskRow.getByRole('button', { name: 'Resume' }).click();
      await toastShown(adminPage, 'Trading resumed');
      await riskRow.getByText('Open', { exact: true }).waitFor({ timeout: POLL_WAIT_MS });

      // Real trading is open again for the trader.
      await page.getByRole('button', { name: 'Real', exact: true }).click();
      await expect
        .poll(async () => (await btc()).real_trading, { timeout: POLL_WAIT_MS, interval: 500 })
        .toBe('open');
      await expect
        .poll(() => page.getByRole('button', { name: /^\W*UP$/ }).isDisabled(), {
          timeout: POLL_WAIT_MS,
          interval: 500,
        })
        .toBe(false);
      await expect(page.getByText(SUSPENDED_NOTICE, { exact: true }).count()).resolves.toBe(0);

      // The admin finds the trader in the Users tab, sorted by toxicity, and allows them one open
      // real trade at a time.
      await adminPage.getByRole('tab', { name: 'Users' }).click();
      await adminPage
        .getByRole('group', { name: 'Sort by' })
        .getByRole('button', { name: 'Toxicity' })
        .click();
      await setTraderLimitsThroughUi(adminPage, user, { 'Max open trades': '1' });
      await adminPage
        .getByRole('row')
        .filter({ hasText: user.email })
        .getByText('1 open trade', { exact: true })
        .waitFor();

      // One real trade goes through; a second one while it is open is refused with the reason.
      await placeUpTradeThroughUi(page);
      await page.getByTestId('payout-up').getByText('Payout 70%').waitFor({ timeout: POLL_WAIT_MS });
      const overCap = await refusalOf(api, token, {
        pair: 'BTCUSDT',
        direction: 'UP',
        amount: 10,
        duration: 60,
        account_type: 'real',
        payout_pct: 70,
      });
      expect(overCap).toMatchObject({ status: 409, code: 'OPEN_TRADES_CAP_REACHED' });
      await page.getByRole('button', { name: /^\W*UP$/ }).click();
      await toastShown(page, overCap.detail!);
      await trader.finish();
      await admin.finish();
    },
    RISK_JOURNEY_TIMEOUT_MS,
  );
});
