import path from 'node:path';
import { ConfigError } from '@updown/runtime';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig, REPO_ROOT } from './config';

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

  it('bounds the body limit', () => {
    expect(() => loadGatewayConfig({ BODY_LIMIT_BYTES: '10' })).toThrow(
      /BODY_LIMIT_BYTES must be at least 1024/,
    );
  });
});
