import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTestApp, login, newAccount, register, type AuthTestApp } from './testing/auth-test-app';

const loginWith = (t: AuthTestApp, email: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

describe('per-account lock on failed sign-ins', () => {
  let database: TestDatabase;
  let t: AuthTestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await authTestApp(database.db);
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('refuses the 6th attempt after 5 failures, even with the right password, for 15 minutes', async () => {
    const victim = newAccount('victim');
    const colleague = newAccount('colleague');
    await register(t.app, victim);
    await register(t.app, colleague);

    for (let i = 0; i < 5; i++) {
      expect((await loginWith(t, victim.email, 'wrong-password')).statusCode).toBe(401);
    }
    const locked = await loginWith(t, victim.email, victim.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      detail: 'Too many failed attempts. This account is locked; try again in 15 minutes.',
      code: 'ACCOUNT_LOCKED',
    });
    // The lock is in PostgreSQL: another gateway process sharing the database sees it too.
    const otherProcess = await authTestApp(database.db);
    try {
      expect((await loginWith(otherProcess, victim.email, victim.password)).statusCode).toBe(429);
    } finally {
      await otherProcess.close();
    }

    // Someone else in the same office (same IP) signs in as usual.
    expect((await login(t.app, colleague.email, colleague.password)).requires_2fa).toBe(false);

    t.clock.advance(15 * 60_000);
    expect((await loginWith(t, victim.email, victim.password)).statusCode).toBe(200);
  });

  it('locks unknown emails the same way, so a lock reveals nothing', async () => {
    const ghost = `ghost.${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) expect((await loginWith(t, ghost, 'whatever-pass')).statusCode).toBe(401);
    expect((await loginWith(t, ghost, 'whatever-pass')).statusCode).toBe(429);
  });

  it('forgets failures after a successful sign-in', async () => {
    const account = newAccount('forgetful');
    await register(t.app, account);
    for (let i = 0; i < 4; i++) await loginWith(t, account.email, 'wrong-password');
    await login(t.app, account.email, account.password);
    for (let i = 0; i < 4; i++)
      expect((await loginWith(t, account.email, 'wrong-password')).statusCode).toBe(401);
    expect((await loginWith(t, account.email, account.password)).statusCode).toBe(200);
  });

  it('lets at most the limit of simultaneous guesses through', async () => {
    const account = newAccount('burst');
    await register(t.app, account);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => loginWith(t, account.email, 'wrong-password')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
  });
});

describe('per-IP ceiling on auth requests', () => {
  let database: TestDatabase;
  let t: AuthTestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await authTestApp(database.db, { config: { AUTH_IP_RATE_MAX: 4, AUTH_IP_RATE_WINDOW_SEC: 60 } });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('counts every auth route together per client IP', async () => {
    const ip = '203.0.113.7';
    const statuses: number[] = [];
    statuses.push((await loginWith(t, 'a@example.com', 'password-1', ip)).statusCode);
    statuses.push(
      (await t.app.inject({ method: 'POST', url: '/api/auth/refresh?refresh_token=x', remoteAddress: ip }))
        .statusCode,
    );
    statuses.push(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: newAccount(),
          remoteAddress: ip,
        })
      ).statusCode,
    );
    statuses.push((await loginWith(t, 'b@example.com', 'password-1', ip)).statusCode);
    expect(statuses).toEqual([401, 401, 201, 401]);

    const over = await loginWith(t, 'c@example.com', 'password-1', ip);
    expect(over.statusCode).toBe(429);
    // The wait left is the window less the time the requests above took: "1 minute" or "58 seconds".
    expect(over.json()).toEqual({
      detail: expect.stringMatching(/^Too many requests; try again in \d+ (minute|seconds?)$/),
      code: 'RATE_LIMITED',
    });
    expect(over.headers['retry-after']).toBeDefined();
    const verify = await t.app.inject({ method: 'POST', url: '/api/2fa/verify', remoteAddress: ip });
    expect(verify.statusCode).toBe(429);

    // Another address is not affected.
    expect((await loginWith(t, 'c@example.com', 'password-1', '198.51.100.1')).statusCode).toBe(401);
  });
});
