import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { authTestApp, bearer, login, newAccount, register, type AuthTestApp } from './testing/auth-test-app';

/**
 * Access tokens whose signature has been checked once are remembered (auth.plugin.ts), so these
 * check that remembering one never lets it, or anything like it, through where a fresh check would
 * refuse it: past its expiry, with its signature altered, or after its session ended.
 */

let database: TestDatabase;
let t: AuthTestApp;

beforeAll(async () => {
  database = await createTestDatabase({ max: 4 });
  t = await authTestApp(database.db);
});

afterAll(async () => {
  await t?.close();
  await database?.drop();
});

async function signedIn() {
  const account = newAccount('verify');
  await register(t.app, account);
  return login(t.app, account.email, account.password);
}

function me(token: string) {
  return t.app.inject({ url: '/api/auth/me', headers: bearer(token) });
}

function expiryMs(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    exp: number;
  };
  return payload.exp * 1000;
}

describe('a remembered access token', () => {
  it('is accepted up to its expiry and refused just after, as one checked afresh', async () => {
    const { access_token: token } = await signedIn();
    expect((await me(token)).statusCode).toBe(200);
    t.clock.advance(expiryMs(token) - t.clock.nowMs());
    expect((await me(token)).statusCode).toBe(200);
    t.clock.advance(1);
    const late = await me(token);
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({ detail: 'Invalid or expired token', code: 'UNAUTHORIZED' });
  });

  it('lets nothing through with its signature altered', async () => {
    const { access_token: token } = await signedIn();
    expect((await me(token)).statusCode).toBe(200);
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const altered = `${token.slice(0, -2)}${last}${token.at(-1)}`;
    expect((await me(altered)).statusCode).toBe(401);
    expect((await me(`${token}x`)).statusCode).toBe(401);
  });

  it('is refused once its session has ended', async () => {
    const tokens = await signedIn();
    expect((await me(tokens.access_token)).statusCode).toBe(200);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(logout.statusCode, logout.body).toBe(200);
    const after = await me(tokens.access_token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: 'This session has ended; sign in again', code: 'UNAUTHORIZED' });
  });
});
