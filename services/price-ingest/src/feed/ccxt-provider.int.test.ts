import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, systemClock } from '@updown/runtime';
import { recordTickerMessages, startFakeExchange, type FakeExchange } from '../testing';
import { waitFor } from '../testing/helpers';
import { CcxtProvider, type ExchangeId } from './ccxt-provider';
import type { FeedPair, SourceCandle, Tick } from './price-provider';

/**
 * The provider against a local stand-in for each exchange, over real sockets: ccxt loads the
 * fake's markets, subscribes to its tickers in the exchange's own format and is put through drops,
 * stalls and unreadable messages. A pump sends each watched symbol's current price every
 * PUMP_MS, as a live exchange keeps sending tickers, so a quiet test is not mistaken for a stall.
 */

const PUMP_MS = 100;
const STALL_AFTER_MS = 1_000;
/** Loading ccxt and the markets (rate-limited by ccxt: Kraken allows one call in three seconds) comes first. */
const CONNECT_TIMEOUT_MS = 20_000;
const WAIT_MS = 10_000;

const BTC: FeedPair = { symbol: 'BTCUSDT', sourceSymbol: 'BTC/USDT', referencePrice: 100, startPrice: 100 };
const ETH: FeedPair = { symbol: 'ETHUSDT', sourceSymbol: 'ETH/USDT', referencePrice: 50, startPrice: 50 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each<ExchangeId>(['binance', 'coinbase', 'kraken'])('CcxtProvider on a fake %s', (exchange) => {
  const ticks: Tick[] = [];
  const reconnected: string[] = [];
  const disconnected: { pair: string; error: unknown }[] = [];
  const malformed: { pair: string | null; error: unknown }[] = [];
  /** The price the pump sends per source symbol; a symbol left out gets nothing. */
  const prices = new Map<string, number>();
  let fake: FakeExchange;
  let provider: CcxtProvider;
  let pump: ReturnType<typeof setInterval>;
  let dir: string;

  const ticked = (pair: string, price: number) => ticks.some((t) => t.pair === pair && t.price === price);
  const waitForTick = (pair: string, price: number, timeoutMs = WAIT_MS) =>
    waitFor(() => ticked(pair, price), { timeoutMs, what: `a ${pair} tick at ${price}` });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), `fake-${exchange}-`));
    fake = await startFakeExchange(exchange, { symbols: ['BTC/USDT', 'ETH/USDT'] });
    provider = new CcxtProvider({
      name: exchange.toUpperCase(),
      exchange,
      clock: systemClock,
      logger: createLogger({ level: 'silent', name: 'ccxt-provider-test' }),
      observer: {
        reconnected: (pair) => void reconnected.push(pair),
        disconnected: (pair, error) => void disconnected.push({ pair, error }),
        malformed: (pair, error) => void malformed.push({ pair, error }),
      },
      endpoints: fake.endpoints,
      backoffMsMin: 50,
      backoffMsMax: 400,
      stallAfterMs: STALL_AFTER_MS,
    });
    provider.start({ accepting: () => true, push: (batch) => void ticks.push(...batch) });
    pump = setInterval(() => {
      for (const [symbol, price] of prices) fake.tick(symbol, price);
    }, PUMP_MS);
    provider.addPair(BTC);
  });

  afterAll(async () => {
    clearInterval(pump);
    provider?.stop();
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('subscribes and turns the fake tickers into ticks of the platform symbol', async () => {
    prices.set('BTC/USDT', 101.25);
    await waitForTick('BTCUSDT', 101.25, CONNECT_TIMEOUT_MS);
    expect(fake.connections()).toBeGreaterThanOrEqual(1);
    expect(fake.subscriptions()).toBeGreaterThanOrEqual(1);
    expect(provider.pairs()).toEqual(['BTCUSDT']);
    const tick = ticks.find((t) => t.price === 101.25);
    expect(tick?.atMs).toBeGreaterThan(Date.now() - 60_000);
    // The pump repeats the price: each message is its own tick, none delivered twice.
    await waitFor(() => ticks.filter((t) => t.price === 101.25).length >= 3, { what: 'repeated tickers' });
    expect(disconnected).toEqual([]);
  });

  it('plays a recorded message file in the exchange format', async () => {
    prices.delete('BTC/USDT');
    await sleep(2 * PUMP_MS);
    const file = path.join(dir, 'btc.jsonl');
    const recorded = recordTickerMessages(exchange, 'BTC/USDT', [201.5, 202.5, 203.5], Date.now());
    await writeFile(file, `${recorded.join('\n')}\n`);
    await fake.play(file, 50);
    await waitForTick('BTCUSDT', 203.5);
    const played = ticks.filter((t) => t.price > 200 && t.price < 204).map((t) => t.price);
    expect(played).toEqual([201.5, 202.5, 203.5]);
    prices.set('BTC/USDT', 102);
    await waitForTick('BTCUSDT', 102);
  });

  it('reports a dropped connection, reconnects and resumes', async () => {
    const drops = disconnected.length;
    const recoveries = reconnected.length;
    fake.dropConnections();
    await waitFor(() => disconnected.length > drops, { timeoutMs: WAIT_MS, what: 'a disconnect' });
    expect(disconnected[drops]?.pair).toBe('BTCUSDT');
    expect(String(disconnected[drops]?.error)).not.toContain('stalled');
    prices.set('BTC/USDT', 103);
    await waitForTick('BTCUSDT', 103);
    expect(reconnected.length).toBeGreaterThan(recoveries);
    expect(fake.connections()).toBeGreaterThanOrEqual(1);
  });

  it('treats a silent stream as dropped, subscribes again and resumes after the stall', async () => {
    const subscriptions = fake.subscriptions();
    const recoveries = reconnected.length;
    fake.stall(true);
    await waitFor(
      () => disconnected.some((d) => d.pair === 'BTCUSDT' && String(d.error).includes('stalled')),
      {
        timeoutMs: WAIT_MS,
        what: 'a stall',
      },
    );
    await waitFor(() => fake.subscriptions() > subscriptions, {
      timeoutMs: WAIT_MS,
      what: 'a resubscription',
    });
    prices.set('BTC/USDT', 104);
    fake.stall(false);
    await waitForTick('BTCUSDT', 104);
    expect(reconnected.length).toBeGreaterThan(recoveries);
  });

  it('counts and skips a malformed message, and keeps streaming', async () => {
    // The pump pauses so the bad message does not arrive in one burst with a good one (ccxt reads
    // a burst as one update).
    prices.delete('BTC/USDT');
    await sleep(2 * PUMP_MS);
    const drops = disconnected.length;
    fake.sendMalformed('BTC/USDT');
    await waitFor(() => malformed.some((m) => m.pair === 'BTCUSDT'), {
      timeoutMs: WAIT_MS,
      what: 'a malformed report',
    });
    prices.set('BTC/USDT', 105);
    await waitForTick('BTCUSDT', 105);
    expect(disconnected.length).toBe(drops);
  });

  it("serves history from the exchange's candles and drops a malformed one", async () => {
    const firstSec = Math.floor(Date.now() / 60_000) * 60 - 10 * 60;
    const candles: SourceCandle[] = [0, 1, 2, 3, 4].map((i) => ({
      bucketStartSec: firstSec + i * 60,
      open: 100 + i,
      high: 102 + i,
      low: 99 + i,
      close: 101 + i,
    }));
    const inconsistent = { bucketStartSec: firstSec + 5 * 60, open: 1, high: 0.5, low: 2, close: 1 };
    fake.setCandles('BTC/USDT', [...candles, inconsistent]);
    expect(await provider.history(BTC, firstSec * 1000, 100)).toEqual(candles);
    expect(await provider.history(BTC, (firstSec + 120) * 1000, 2)).toEqual(candles.slice(2, 4));
  });

  it('stops the ticks of a removed pair and keeps the others', async () => {
    provider.addPair(ETH);
    prices.set('ETH/USDT', 50.5);
    prices.set('BTC/USDT', 106);
    await waitForTick('ETHUSDT', 50.5);
    provider.removePair('ETHUSDT');
    expect(provider.pairs()).toEqual(['BTCUSDT']);
    const ethTicks = ticks.filter((t) => t.pair === 'ETHUSDT').length;
    prices.set('ETH/USDT', 51.5);
    prices.set('BTC/USDT', 107);
    await waitForTick('BTCUSDT', 107);
    await sleep(5 * PUMP_MS);
    expect(ticks.filter((t) => t.pair === 'ETHUSDT').length).toBe(ethTicks);
  });

  it('ends every tick and closes its sockets on stop', async () => {
    prices.set('BTC/USDT', 108);
    await waitForTick('BTCUSDT', 108);
    provider.stop();
    const count = ticks.length;
    prices.set('BTC/USDT', 109);
    await waitFor(() => fake.connections() === 0, { timeoutMs: WAIT_MS, what: 'the sockets to close' });
    await sleep(5 * PUMP_MS);
    expect(ticks.length).toBe(count);
    expect(provider.pairs()).toEqual([]);
  });
});
