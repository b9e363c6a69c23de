import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger';

describe('redactUrl', () => {
  it('replaces the value of every credential-carrying query parameter and keeps the rest', () => {
    expect(redactUrl('/api/auth/refresh?refresh_token=abc.def')).toBe(
      '/api/auth/refresh?refresh_token=[redacted]',
    );
    expect(redactUrl('/api/market/candles?pair=BTCUSDT&access_token=x&limit=5')).toBe(
      '/api/market/candles?pair=BTCUSDT&access_token=[redacted]&limit=5',
    );
    expect(redactUrl('/x?Token=1&api_key=2&password=3&session_id=4&code=5#frag')).toBe(
      '/x?Token=[redacted]&api_key=[redacted]&password=[redacted]&session_id=[redacted]&code=[redacted]',
    );
  });

  it('finds a key hidden behind percent-encoding and leaves URLs without a query alone', () => {
    expect(redactUrl('/x?refresh%5Ftoken=s3cret')).toBe('/x?refresh%5Ftoken=[redacted]');
    expect(redactUrl('/x?%zz=1&token=s3cret')).toBe('/x?%zz=1&token=[redacted]');
    expect(redactUrl('/api/wallet')).toBe('/api/wallet');
  });
});

describe('createLogger', () => {
  it('redacts the URL of a request passed as req', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ level: 'info', name: 'test', destination });
    logger.info(
      { req: { method: 'POST', url: '/api/auth/logout?refresh_token=s3cret', headers: { cookie: 'c' } } },
      'seen',
    );
    const line = JSON.parse(lines[0]!) as { req: Record<string, unknown> };
    expect(line.req).toEqual({ method: 'POST', url: '/api/auth/logout?refresh_token=[redacted]' });
    expect(lines.join('')).not.toContain('s3cret');
  });
});
