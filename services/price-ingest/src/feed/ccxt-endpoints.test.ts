import { describe, expect, it } from 'vitest';
import { ccxtApiUrls, CCXT_EXCHANGES, type CcxtApiUrls, type ExchangeId } from './ccxt-endpoints.domain';

/**
 * The endpoints mapping against the URL tables of the ccxt version installed, so a ccxt upgrade
 * that renames a key fails here rather than sending a test to the real exchange.
 */

const endpoints = { rest: 'http://127.0.0.1:4100', ws: 'ws://127.0.0.1:4100/stream' };

async function defaultUrls(exchange: ExchangeId): Promise<CcxtApiUrls> {
  const ccxt = await import('ccxt');
  return new ccxt.pro[exchange]().urls.api as CcxtApiUrls;
}

function allUrls(table: CcxtApiUrls): string[] {
  return Object.values(table).flatMap((value) => (typeof value === 'string' ? [value] : allUrls(value)));
}

describe('ccxtApiUrls', () => {
  it('points Binance spot REST and the spot stream at the endpoints', async () => {
    const urls = ccxtApiUrls('binance', await defaultUrls('binance'), endpoints);
    expect(urls['public']).toBe('http://127.0.0.1:4100/api/v3');
    expect(urls['private']).toBe('http://127.0.0.1:4100/api/v3');
    expect(urls['v1']).toBe('http://127.0.0.1:4100/api/v1');
    expect(urls['ws']).toMatchObject({ spot: endpoints.ws, margin: endpoints.ws });
  });

  it('points Coinbase Advanced Trade REST and socket at the endpoints', async () => {
    const urls = ccxtApiUrls('coinbase', await defaultUrls('coinbase'), endpoints);
    expect(urls['rest']).toBe('http://127.0.0.1:4100');
    expect(urls['ws']).toBe(endpoints.ws);
  });

  it('points Kraken public REST and both public sockets at the endpoints', async () => {
    const v2 = { rest: 'http://127.0.0.1:4100/', ws: 'ws://127.0.0.1:4100/v2' };
    const urls = ccxtApiUrls('kraken', await defaultUrls('kraken'), v2);
    expect(urls['public']).toBe('http://127.0.0.1:4100');
    expect(urls['ws']).toMatchObject({ public: 'ws://127.0.0.1:4100', publicV2: 'ws://127.0.0.1:4100/v2' });
  });

  it.each<ExchangeId>(['binance', 'coinbase', 'kraken'])(
    'leaves no %s URL on the real exchange',
    async (exchange) => {
      const urls = allUrls(ccxtApiUrls(exchange, await defaultUrls(exchange), endpoints));
      expect(urls.length).toBeGreaterThan(1);
      for (const url of urls) expect(url).toMatch(/^(http|ws):\/\/127\.0\.0\.1:4100(\/|$)/);
    },
  );

  it('maps the providers to exchanges', () => {
    expect(CCXT_EXCHANGES).toEqual({ BINANCE: 'binance', COINBASE: 'coinbase', KRAKEN: 'kraken' });
  });
});
