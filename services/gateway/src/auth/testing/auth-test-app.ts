import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generate } from 'otplib';
import type { FastifyPluginAsync } from 'fastify';
import { expect } from 'vitest';
import { accountsMigrations, setRole } from '@updown/accounts';
import {
  createMetricsRegistry,
  ManualClock,
  type Database,
  type Logger,
  type Registry,
} from '@updown/runtime';
import { buildApp, type GatewayPlugin } from '../../app';
import type { GatewayInstance } from '../../http/instance';
import { memoryLogger } from '../../testing/test-app';
import { GOOGLE_JWKS_DEFAULT } from '../auth.config';
import { createAuthPlugin, type AuthPluginConfig } from '../auth.plugin';

export const TEST_JWT_SECRET = randomBytes(48).toString('base64url');

export const TEST_AUTH_CONFIG: AuthPluginConfig = {
  UPDOWN_ENV: 'test',
  DATA_DIR: '/nonexistent',
  JWT_SECRET: TEST_JWT_SECRET,
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
};

export interface AuthTestApp {
  readonly app: GatewayInstance;
  /** The registry the app and the auth plugin count on. */
  readonly registry: Registry;
  readonly clock: ManualClock;
  readonly logs: () => Record<string, unknown>[];
  /** Every log line as written, for substring checks. */
  readonly logText: () => string;
  close(): Promise<void>;
}

/** The gateway with the auth plugin over a test database, on a manual clock starting now. */
export async function authTestApp(
  db: Kysely<Database>,
  options: {
    config?: Partial<AuthPluginConfig>;
    plugins?: readonly GatewayPlugin[];
    logger?: Logger;
    /** How often this app reads the sessions other processes ended (the plugin's default is 1 s). */
    endedSessionsSyncMs?: number;
    /** The reverse proxies whose X-Forwarded-For is believed (`TRUST_PROXY`). */
    trustProxy?: string[];
  } = {},
): Promise<AuthTestApp> {
  const clock = new ManualClock(Date.now());
  const memory = memoryLogger('debug');
  const logger = options.logger ?? memory.logger;
  const registry = createMetricsRegistry();
  const app = buildApp({
    config: {
      CONSOLE_DIR: '/nonexistent',
      CORS_ORIGINS: [],
      BODY_LIMIT_BYTES: 1024 * 1024,
      TRUST_PROXY: options.trustProxy ?? [],
    },
    logger,
    registry,
    db,
    readiness: { migrations: [accountsMigrations] },
    plugins: [
      createAuthPlugin({
        db,
        logger,
        clock,
        registry,
        config: { ...TEST_AUTH_CONFIG, ...options.config },
        endedSessionsSyncMs: options.endedSessionsSyncMs,
      }),
      ...(options.plugins ?? []),
    ],
  });
  await app.ready();
  return {
    app,
    registry,
    clock,
    logs: memory.lines,
    logText: () => JSON.stringify(memory.lines()),
    close: () => app.close(),
  };
}

/**
 * A route of a later feature, registered after the auth plugin and guarded by `app.authenticate`:
 * what a test asks to see whether an access token still opens the API.
 */
export const laterFeature: FastifyPluginAsync = async (app) => {
  app.get('/api/wallet', { onRequest: [app.authenticate] }, async (request) => ({ user: request.user.id }));
};

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

let counter = 0;

/** A fresh, valid set of registration details. */
export function newAccount(prefix = 'user'): { name: string; email: string; password: string } {
  counter += 1;
  return {
    name: `Test ${prefix} ${counter}`,
    email: `${prefix}.${counter}.${randomBytes(3).toString('hex')}@example.com`,
    password: `pw-${randomBytes(6).toString('hex')}`,
  };
}

export async function register(
  app: GatewayInstance,
  account: { name: string; email: string; password: string },
): Promise<{ id: string; email: string }> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: account });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export interface LoginBody {
  access_token: string;
  refresh_token: string;
  requires_2fa: boolean;
}

export async function login(app: GatewayInstance, email: string, password: string): Promise<LoginBody> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The current code of `secret` on the test clock. */
/** Registers an account, makes it an admin before it logs in (so its token says so), and logs it in. */
export async function adminToken(app: GatewayInstance, db: Kysely<Database>): Promise<string> {
  const account = newAccount('admin');
  const { id } = await register(app, account);
  await setRole(db, id, 'admin', new Date());
  return (await login(app, account.email, account.password)).access_token;
}

export function totp(secret: string, clock: ManualClock): Promise<string> {
  return generate({ secret, epoch: Math.floor(clock.nowMs() / 1000) });
}
