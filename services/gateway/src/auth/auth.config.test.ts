import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@updown/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../config';
import { memoryLogger } from '../testing/test-app';
import { GOOGLE_JWKS_DEFAULT } from './auth.config';
import { JWT_SECRET_FILE, resolveJwtSecret } from './jwt-secret';

const STRONG = 'q8Vt3kPz1mRw7YcN0bLs5HdJf2XgA9Ue4TiKo6Zn';

function problemsOf(source: Record<string, string>): string[] {
  try {
    loadGatewayConfig(source);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('auth configuration', () => {
  it('has working defaults for development', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      JWT_SECRET: undefined,
      ACCESS_TOKEN_TTL_SEC: 900,
      REFRESH_TOKEN_TTL_SEC: 30 * 24 * 3600,
      REFRESH_TOKEN_REUSE_GRACE_SEC: 30,
      GOOGLE_CLIENT_ID: undefined,
      GOOGLE_JWKS_URL: GOOGLE_JWKS_DEFAULT,
      AUTH_FREE_FAILURES: 3,
      AUTH_DELAY_BASE_SEC: 1,
      AUTH_DELAY_MAX_SEC: 900,
      AUTH_ADDRESS_MAX_FAILURES: 100,
      AUTH_ACCOUNT_MAX_FAILURES: 20,
      AUTH_THROTTLE_WINDOW_SEC: 3600,
      AUTH_IP_RATE_MAX: 300,
      AUTH_IP_RATE_WINDOW_SEC: 60,
    });
  });

  it('refuses to start in production without a strong JWT_SECRET', () => {
    expect(problemsOf({ UPDOWN_ENV: 'production' }).join('\n')).toMatch(/JWT_SECRET is required/);
    const short = problemsOf({ UPDOWN_ENV: 'production', JWT_SECRET: 'too-short-secret' });
    expect(short).toEqual(['JWT_SECRET must be at least 32 characters in production']);
    for (const placeholder of [
      'change-me-change-me-change-me-change-me',
      'my-super-secret-jwt-key-for-production-use',
      'a'.repeat(40),
    ]) {
      const problems = problemsOf({ UPDOWN_ENV: 'production', JWT_SECRET: placeholder });
      expect(problems, placeholder).toEqual([
        'JWT_SECRET looks like a placeholder; use a random value (openssl rand -base64 48)',
      ]);
      // The value itself never appears in the message.
      expect(problems.join()).not.toContain(placeholder);
    }
    expect(problemsOf({ UPDOWN_ENV: 'production', JWT_SECRET: STRONG })).toEqual([]);
  });

  it('accepts a short secret outside production', () => {
    expect(problemsOf({ UPDOWN_ENV: 'development', JWT_SECRET: 'dev' })).toEqual([]);
  });

  it('needs https for the JWKS in production', () => {
    expect(
      problemsOf({
        UPDOWN_ENV: 'production',
        JWT_SECRET: STRONG,
        GOOGLE_JWKS_URL: 'http://127.0.0.1:9/certs',
      }),
    ).toEqual(['GOOGLE_JWKS_URL must use https in production']);
  });

  it('checks the admin variables together, without echoing the password', () => {
    expect(problemsOf({ ADMIN_EMAIL: 'boss@example.com' })).toEqual([
      'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    ]);
    expect(problemsOf({ ADMIN_EMAIL: 'boss', ADMIN_PASSWORD: 'weak' })).toEqual([
      'ADMIN_EMAIL must be an email address',
      'ADMIN_PASSWORD: Password must be at least 8 characters',
    ]);
  });

  it('bounds the limits', () => {
    expect(problemsOf({ AUTH_ACCOUNT_MAX_FAILURES: '0', ACCESS_TOKEN_TTL_SEC: '5' })).toEqual([
      'ACCESS_TOKEN_TTL_SEC must be at least 60, got 5',
      'AUTH_ACCOUNT_MAX_FAILURES must be at least 1, got 0',
    ]);
  });

  it('keeps the sign-in delay within its window', () => {
    expect(problemsOf({ AUTH_DELAY_BASE_SEC: '60', AUTH_DELAY_MAX_SEC: '30' })).toEqual([
      'AUTH_DELAY_MAX_SEC must be at least AUTH_DELAY_BASE_SEC',
    ]);
    expect(problemsOf({ AUTH_DELAY_MAX_SEC: '7200' })).toEqual([
      'AUTH_DELAY_MAX_SEC must be at most AUTH_THROTTLE_WINDOW_SEC',
    ]);
    expect(problemsOf({ AUTH_DELAY_MAX_SEC: '7200', AUTH_THROTTLE_WINDOW_SEC: '7200' })).toEqual([]);
  });
});

describe('the development JWT key', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'updown-jwt-'));
    dirs.push(dir);
    return path.join(dir, 'data');
  }

  it('is generated once, kept with mode 600 and reused after a restart', async () => {
    const DATA_DIR = await dataDir();
    const { logger } = memoryLogger('silent');
    const config = { UPDOWN_ENV: 'development', JWT_SECRET: undefined, DATA_DIR };
    const first = await resolveJwtSecret(config, logger);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(DATA_DIR, JWT_SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect(await resolveJwtSecret(config, logger)).toBe(first);
  });

  it('agrees between processes starting together', async () => {
    const DATA_DIR = await dataDir();
    const { logger } = memoryLogger('silent');
    const config = { UPDOWN_ENV: 'test', JWT_SECRET: undefined, DATA_DIR };
    const keys = await Promise.all([1, 2, 3, 4].map(() => resolveJwtSecret(config, logger)));
    expect(new Set(keys).size).toBe(1);
  });

  it('prefers JWT_SECRET and refuses a damaged key file', async () => {
    const DATA_DIR = await dataDir();
    const { logger } = memoryLogger('silent');
    expect(await resolveJwtSecret({ UPDOWN_ENV: 'test', JWT_SECRET: STRONG, DATA_DIR }, logger)).toBe(STRONG);
    await resolveJwtSecret({ UPDOWN_ENV: 'test', JWT_SECRET: undefined, DATA_DIR }, logger);
    await writeFile(path.join(DATA_DIR, JWT_SECRET_FILE), 'short');
    await expect(
      resolveJwtSecret({ UPDOWN_ENV: 'test', JWT_SECRET: undefined, DATA_DIR }, logger),
    ).rejects.toThrow(/no usable JWT key/);
  });
});
