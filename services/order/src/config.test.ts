import { describe, expect, it } from 'vitest';
import { ConfigError } from '@updown/runtime';
import { DEV_SERVICE_TOKEN, loadOrderConfig, serviceToken } from './config';

describe('order configuration', () => {
  it('listens on loopback :8083 and uses the development token when none is set', () => {
    const config = loadOrderConfig({});
    expect([config.ORDER_HOST, config.ORDER_PORT]).toEqual(['127.0.0.1', 8083]);
    expect(serviceToken(config)).toBe(DEV_SERVICE_TOKEN);
  });

  it.each([
    [undefined, 'SERVICE_TOKEN is required when UPDOWN_ENV=production'],
    ['short', 'SERVICE_TOKEN must be a secret of at least 32 characters in production'],
    [DEV_SERVICE_TOKEN, 'SERVICE_TOKEN must be a secret of at least 32 characters in production'],
  ])('refuses the service token %s in production', (token, message) => {
    const load = () => loadOrderConfig({ UPDOWN_ENV: 'production', SERVICE_TOKEN: token });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it('accepts a long secret in production', () => {
    const token = 'x'.repeat(48);
    expect(serviceToken(loadOrderConfig({ UPDOWN_ENV: 'production', SERVICE_TOKEN: token }))).toBe(token);
  });
});
