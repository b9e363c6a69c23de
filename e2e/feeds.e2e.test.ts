import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser } from '@updown/api-client';
import { TEST_ADMIN } from '@updown/platform/testing';
import { startFakeExchange, type FakeExchange } from '@updown/price-ingest/testing';
import { UI_TIMEOUT_MS } from './harness/browser';
import {
  accessToken,
  onPath,
  signInThroughUi,
  toastShown,
  useE2eSuite,
  placeUpTradeThroughUi,
} from './harness/suite';

/**
 * An admin moves BTCUSDT from OTC to Binance with Coinbase as reference (both local fakes that
 * speak the exchanges' formats: nothing leaves the machine); a trader's chart and trade run on
 * Binance's prices; a jump on Binance alone voids the trade at expiry with the reason shown; a
 * stalled feed pauses the pair, and the console says so.
 */

/** The pairs poll (2 s), a history backfill and the first ticks of both feeds. */
const SWITCH_WAIT_MS = 30_000;
/** The console refetches the pairs every 3 s; price-ingest reports every second; a feed is stale after 5 s. */
const STATUS_WAIT_MS = 20_000;
const FEEDS_JOURNEY_TIMEOUT_MS = 240_000;

let binance: FakeExchange | undefined;
let coinbase: FakeExchange | undefined;
let pump: ReturnType<typeof setInterval> | undefined;
const prices = { binance: 97_250.5, coinbase: 97_260 };

beforeAll(async () => {
  [binance, coinbase] = await Promise.all([
    startFakeExchange('binance', { symbols: ['BTC/USDT'] }),
    startFakeExchange('coinbase', { symbols: ['BTC/USDT'] }),
  ]);
  // Binance's last three hours of minutes, for the chart's history.
  const minuteSec = Math.floor(Date.now() / 60_000) * 60;
  binance.setCandles(
    'BTC/USDT',
    Array.from({ length: 180 }, (_, i) => {
      const open = 97_000 + 200 * Math.sin(i / 15);
      const close = 97_000 + 200 * Math.sin((i + 1) / 15);
      return {
        bucketStartSec: minuteSec - (180 - i) * 60,
        open,
        high: Math.max(open, close) + 20,
        low: Math.min(open, close) - 20,
        close,
      };
    }),
  );
  pump = setInterval(() => {
    binance!.tick('BTC/USDT', prices.binance);
    coinbase!.tick('BTC/USDT', prices.coinbase);
  }, 200);
});
afterAll(async () => {
  clearInterval(pump);
  await Promise.all([binance?.close(), coinbase?.close()]);
});

describe('real market feeds', () => {
  const suite = useE2eSuite({
    env: () => ({
      EXCHANGE_ENDPOINTS: JSON.stringify({ BINANCE: binance!.endpoints, COINBASE: coinbase!.endpoints }),
    }),
  });

  it(
    'switches BTCUSDT to Binance with Coinbase as reference, voids a trade on a one-sided jump, and shows a stalled feed',
    async () => {
      // The admin switches the pair's feed in the Trading Pairs tab.
      const admin = await suite.journey();
      await signInThroughUi(admin.page, TEST_ADMIN);
      await admin.page.goto('/admin?tab=pairs');
      await onPath(admin.page, '/admin');
      const row = admin.page.getByRole('row').filter({ hasText: 'BTCUSDT' }).first();
      await row.getByRole('button', { name: 'Feed' }).click();
      const form = admin.page.getByRole('form', { name: 'Feed of BTCUSDT' });
      // A select's label also reads its chosen option ("Provider OTC"): matched by its start.
      await form.getByLabel(/^Provider/).selectOption('BINANCE');
      await form.getByLabel('Exchange Symbol').fill('BTC/USDT');
      await form.getByLabel(/^Reference Provider/).selectOption('COINBASE');
      await form.getByLabel('Reference Symbol').fill('BTC/USDT');
      await form.getByLabel('Spread (bps)').fill('50');
      await form.getByRole('button', { name: 'Save Feed' }).click();
      await toastShown(admin.page, 'Feed updated');
      await admin.page.getByText('BINANCE · BTC/USDT').first().waitFor();

      // The Feeds tab shows both feeds live once price-ingest has moved the pair.
      await admin.page.getByRole('tab', { name: 'Feeds' }).click();
      const feedRow = admin.page.getByRole('row').filter({ hasText: 'BTCUSDT' }).first();
      await feedRow.getByText('Live', { exact: true }).first().waitFor({ timeout: SWITCH_WAIT_MS });
      await feedRow
        .getByText(/BINANCE/)
        .first()
        .waitFor();
      await feedRow
        .getByText(/COINBASE/)
        .first()
        .waitFor();
      await admin.screenshot('feeds');

      // A trader sees Binance's price and trades on it.
      const { api } = suite.platform;
      const user = newUser('Feeds');
      await api.post('/api/auth/register', user);
      const trader = await suite.journey();
      const { page } = trader;
      await signInThroughUi(page, user);
      await page.getByText('97250.50').first().waitFor({ timeout: STATUS_WAIT_MS });
      await placeUpTradeThroughUi(page);
      const token = await accessToken(page);
      const [placed] = await api.get('/api/trades/active', { token });
      expect(placed).toMatchObject({ pair: 'BTCUSDT', entry_price: prices.binance });

      // Binance alone jumps 3% just before expiry: the feeds disagree, and the trade is void.
      prices.binance = 100_168;
      await page.getByText('feeds disagree', { exact: true }).first().waitFor({ timeout: STATUS_WAIT_MS });
      await expect(page.getByRole('button', { name: /^\W*UP$/ }).isDisabled()).resolves.toBe(true);
      await trader.screenshot('diverged');
      await suite.platform.passExpiry('BTCUSDT', placed!.expiry_ts * 1000);
      await expect
        .poll(
          async () =>
            (await api.get('/api/trades/history', { token })).find((t) => t.id === placed!.id)?.void_reason,
          { timeout: 30_000, interval: 500 },
        )
        .toBe('feeds_diverged_at_expiry');
      await page.getByRole('tab', { name: 'History' }).click();
      await page
        .getByText('Void: price feeds disagreed at expiry (stake returned)')
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
      await trader.screenshot('voided');

      // The feeds agree again; then Binance stalls and the pair pauses.
      await page.getByRole('tab', { name: 'Place Trade' }).click();
      prices.binance = prices.coinbase;
      await page
        .getByText('feeds disagree', { exact: true })
        .first()
        .waitFor({ state: 'detached', timeout: STATUS_WAIT_MS });
      binance!.stall(true);
      try {
        await page.getByText('feed paused', { exact: true }).first().waitFor({ timeout: STATUS_WAIT_MS });
        await expect(page.getByRole('button', { name: /^\W*UP$/ }).isDisabled()).resolves.toBe(true);
        await trader.screenshot('paused');
      } finally {
        binance!.stall(false);
      }
      await page
        .getByText('feed paused', { exact: true })
        .first()
        .waitFor({ state: 'detached', timeout: 40_000 });
      await trader.finish();
      await admin.finish();
    },
    FEEDS_JOURNEY_TIMEOUT_MS,
  );
});
