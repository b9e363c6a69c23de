import { describe, expect, it } from 'vitest';
import { loadPriceIngestConfig } from '../config';
import { parseExchangeEndpoints } from './exchange-endpoints';

describe('EXCHANGE_ENDPOINTS', () => {
  it('is empty by default, and maps exchange providers to their REST and WebSocket URLs', () => {
    expect(parseExchangeEndpoints('')).toEqual({});
    const endpoints = { rest: 'http://127.0.0.1:9001', ws: 'ws://127.0.0.1:9001/ws' };
    expect(parseExchangeEndpoints(JSON.stringify({ BINANCE: endpoints }))).toEqual({ BINANCE: endpoints });
  });

  it.each([
    ['not json', /must be a JSON object/],
    ['[]', /must be a JSON object from provider name/],
    ['{"NYSE":{"rest":"http://a","ws":"ws://a"}}', /NYSE is not an exchange provider/],
    ['{"KRAKEN":{"rest":"ftp://a","ws":"ws://a"}}', /KRAKEN needs "rest"/],
    ['{"KRAKEN":{"rest":"http://a"}}', /KRAKEN needs "rest"/],
  ])('refuses %s at start, naming the variable', (value, message) => {
    expect(() => parseExchangeEndpoints(value)).toThrow(message);
    expect(() => loadPriceIngestConfig({ EXCHANGE_ENDPOINTS: value })).toThrow(/EXCHANGE_ENDPOINTS/);
  });
});
