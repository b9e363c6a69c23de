import type { AddressInfo } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTestApp, type AuthTestApp } from '../auth/testing/auth-test-app';

/**
 * Real 429s, over a socket on loopback against PostgreSQL, each telling the client when to come
 * back: the per-address ceiling on auth requests (@fastify/rate-limit, from its window) and the
 * sign-in throttle (its errors' `retryAfterSec`, sent by the error handler).
 */

const WINDOW_SEC = 60;

async function listening(t: AuthTestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

function signIn(base: string, email: string): Promise<Response> {
  return fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'not-the-password-1' }),
  });
}

/** The Retry-After of a 429, in whole seconds. */
async function retryAfterSec(res: Response): Promise<number> {
  expect(res.status, await res.clone().text()).toBe(429);
  const header = res.headers.get('retry-after');
  expect(header, 'Retry-After').toMatch(/^[1-9]\d*$/);
  return Number(header);
}

describe('Retry-After on the 429s of a running gateway', () => {
  let database: TestDatabase;
  const apps: AuthTestApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await database.drop();
  });

  it('carries the rate limiter’s wait when a client passes the per-address ceiling', async () => {
    const t = await authTestApp(database.db, {
      config: { AUTH_IP_RATE_MAX: 3, AUTH_IP_RATE_WINDOW_SEC: WINDOW_SEC },
    });
    apps.push(t);
    const base = await listening(t);
    for (let i = 0; i < 3; i++) expect((await signIn(base, `nobody.${i}@example.com`)).status).toBe(401);
    const over = await signIn(base, 'nobody.3@example.com');
    const wait = await retryAfterSec(over);
    expect(wait).toBeLessThanOrEqual(WINDOW_SEC);
    expect(await over.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Every refusal until the window ends says so, not only the first.
    expect(await retryAfterSec(await signIn(base, 'nobody.4@example.com'))).toBeLessThanOrEqual(WINDOW_SEC);
  });

  it('carries the sign-in throttle’s own wait, which grows', async () => {
    const t = await authTestApp(database.db);
    apps.push(t);
    const base = await listening(t);
    const email = `throttled.${Date.now()}@example.com`;
    /** Fails until the throttle refuses before checking anything; returns its 429. */
    const failUntilRefused = async (): Promise<Response> => {
      for (let i = 0; i < 10; i++) {
        const res = await signIn(base, email);
        if (res.status === 429) return res;
        expect(res.status).toBe(401);
      }
      throw new Error('the throttle never refused');
    };
    const waits: number[] = [];
    for (let round = 0; round < 2; round++) {
      const refused = await failUntilRefused();
      const wait = await retryAfterSec(refused);
      const { detail } = (await refused.json()) as { detail: string };
      expect(detail).toContain(`${wait} second`);
      waits.push(wait);
      t.clock.advance(wait * 1000);
    }
    // The second wait is longer than the first: the header is the throttle's, not a default.
    expect(waits[1]).toBeGreaterThan(waits[0]!);
  });
});
