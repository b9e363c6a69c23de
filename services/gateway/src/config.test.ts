import path from 'node:path';
import { ConfigError } from '@updown/runtime';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig, metricsConfigProblems, REPO_ROOT } from './config';

describe('loadGatewayConfig', () => {
  it('has safe defaults', () => {
    const config = loadGatewayConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.CONSOLE_DIR).toBe(path.join(REPO_ROOT, 'console', 'dist'));
    expect(config.CORS_ORIGINS).toEqual([]);
    expect(config.BODY_LIMIT_BYTES).toBe(1024 * 1024);
    // The runtime variables come from the same call.
    expect(config.LOG_LEVEL).toBe('info');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads overrides', () => {
    const config = loadGatewayConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      CONSOLE_DIR: 'some/dir',
      CORS_ORIGINS: 'https://a.example.com, http://localhost:5173',
      BODY_LIMIT_BYTES: '2048',
    });
    expect(config).toMatchObject({
      PORT: 9000,
      HOST: '0.0.0.0',
      CONSOLE_DIR: path.resolve('some/dir'),
      CORS_ORIGINS: ['https://a.example.com', 'http://localhost:5173'],
      BODY_LIMIT_BYTES: 2048,
    });
  });

  it('reports every bad variable, runtime and gateway alike, in one error', () => {
    let caught: unknown;
    try {
      loadGatewayConfig({
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        CORS_ORIGINS: 'https://ok.example.com,https://bad.example.com/,*',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT must be an integer');
    expect(problems).toContain('LOG_LEVEL must be one of');
    expect(problems).toContain('"https://bad.example.com/"');
    expect(problems).toContain('"*"');
    expect(problems).not.toContain('"https://ok.example.com"');
  });

  it('trusts no proxy by default, listed addresses and ranges when told, and never everyone', () => {
    expect(loadGatewayConfig({}).TRUST_PROXY).toEqual([]);
    expect(loadGatewayConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
    ]);
    for (const everyone of ['true', '1', 'loopback', '*']) {
      expect(() => loadGatewayConfig({ TRUST_PROXY: everyone })).toThrow(
        `TRUST_PROXY must list the proxies' addresses or CIDR ranges (such as 10.0.0.0/8), not "${everyone}"`,
      );
    }
  });

  it('serves the API documents by default, production included, and turns them off when told', () => {
    expect(loadGatewayConfig({}).API_DOCS).toBe('public');
    const production = {
      UPDOWN_ENV: 'production',
      JWT_SECRET: 'q7Hc2Lw9XbT4mVz1Rk8Np3Ys6Fd0Ga5Je2Uo9Ci4Bx7Wl1M',
    };
    expect(loadGatewayConfig(production).API_DOCS).toBe('public');
    expect(loadGatewayConfig({ API_DOCS: 'off' }).API_DOCS).toBe('off');
    expect(() => loadGatewayConfig({ API_DOCS: 'private' })).toThrow(
      /API_DOCS must be one of public, off, got "private"/,
    );
  });

  it('bounds the body limit', () => {
    expect(() => loadGatewayConfig({ BODY_LIMIT_BYTES: '10' })).toThrow(
      /BODY_LIMIT_BYTES must be at least 1024/,
    );
  });
});

describe('metrics exposure', () => {
  const TOKEN = 'Qm7xT2vK9pLw4rZc8nBy1sHd6fJg3aUe';

  it('is open by default, on the public port', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      METRICS_TOKEN: undefined,
      METRICS_PORT: undefined,
      METRICS_HOST: '127.0.0.1',
    });
  });

  it('reads a token without surrounding blanks and a port of its own', () => {
    const config = loadGatewayConfig({
      METRICS_TOKEN: ` ${TOKEN} `,
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
    });
    expect(config).toMatchObject({ METRICS_TOKEN: TOKEN, METRICS_PORT: 9464, METRICS_HOST: '0.0.0.0' });
    expect(loadGatewayConfig({ METRICS_PORT: ' ' }).METRICS_PORT).toBeUndefined();
    expect(() => loadGatewayConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT must be an integer/);
  });

  it('must be protected in production, by a token or a port of its own', () => {
    const production = { UPDOWN_ENV: 'production', METRICS_TOKEN: undefined, METRICS_PORT: undefined };
    expect(metricsConfigProblems(production)).toEqual([
      expect.stringMatching(/^METRICS_TOKEN or METRICS_PORT is required when UPDOWN_ENV=production/),
    ]);
    expect(metricsConfigProblems({ ...production, METRICS_TOKEN: '  ' })).toHaveLength(1);
    expect(metricsConfigProblems({ ...production, METRICS_TOKEN: TOKEN })).toEqual([]);
    expect(metricsConfigProblems({ ...production, METRICS_PORT: '9464' })).toEqual([]);
    const short = metricsConfigProblems({ ...production, METRICS_TOKEN: 'short-token' });
    expect(short).toEqual(['METRICS_TOKEN must be at least 32 characters in production']);
    expect(short.join()).not.toContain('short-token');
    // Development and test keep it open.
    for (const UPDOWN_ENV of [undefined, 'development', 'test']) {
      expect(metricsConfigProblems({ ...production, UPDOWN_ENV })).toEqual([]);
    }
  });
});
