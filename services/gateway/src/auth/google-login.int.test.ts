import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances } from '@updown/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTestApp, bearer, newAccount, register, totp, type AuthTestApp } from './testing/auth-test-app';

const CLIENT_ID = 'updown-test.apps.googleusercontent.com';
const KID = 'test-key-1';

/** A stand-in for Google's JWKS endpoint, on loopback. */
async function startJwksServer(jwks: object): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/oauth2/v3/certs`, server };
}

describe('Google sign-in', () => {
  let database: TestDatabase;
  let t: AuthTestApp;
  let jwks: { url: string; server: Server };
  let googleKey: CryptoKey;
  let forgerKey: CryptoKey;

  beforeAll(async () => {
    const google = await generateKeyPair('RS256');
    const forger = await generateKeyPair('RS256');
    googleKey = google.privateKey;
    forgerKey = forger.privateKey;
    const publicJwk = { ...(await exportJWK(google.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
    jwks = await startJwksServer({ keys: [publicJwk] });
    database = await createTestDatabase();
    t = await authTestApp(database.db, {
      config: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: jwks.url },
    });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    await new Promise((resolve) => jwks?.server.close(resolve));
  });

  let subject = 0;

  async function idToken(
    claims: JWTPayload = {},
    options: { key?: CryptoKey; expiresInSec?: number; audience?: string; issuer?: string } = {},
  ): Promise<string> {
    const nowSec = Math.floor(t.clock.nowMs() / 1000);
    subject += 1;
    return new SignJWT({
      email: `google.${subject}.${nowSec}@gmail.com`,
      email_verified: true,
      name: 'Grace Hopper',
      sub: `10${subject}${nowSec}`,
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
      .setIssuer(options.issuer ?? 'https://accounts.google.com')
      .setAudience(options.audience ?? CLIENT_ID)
      .setIssuedAt(nowSec)
      .setExpirationTime(nowSec + (options.expiresInSec ?? 3600))
      .sign(options.key ?? googleKey);
  }

  const googleLogin = (sessionToken: string, body: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/google-login',
      payload: {
        email: 'attacker@evil.example',
        name: 'Body Name',
        picture: null,
        session_token: sessionToken,
        ...body,
      },
    });

  it('signs in a new user from a valid token, trusting the token and not the body', async () => {
    const token = await idToken({ email: 'Grace.Hopper@Gmail.com', sub: '111222333' });
    const res = await googleLogin(token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.requires_2fa).toBe(false);
    expect(body.refresh_token).not.toBe('');
    const me = (await t.app.inject({ url: '/api/auth/me', headers: bearer(body.access_token) })).json();
    expect(me).toMatchObject({ email: 'grace.hopper@gmail.com', name: 'Grace Hopper', role: 'user' });
    expect((await getUserBalances(database.db, me.id)).demo).toBe(1_000_000);

    // The second sign-in finds the same account.
    const again = await googleLogin(await idToken({ email: 'grace.hopper@gmail.com', sub: '111222333' }));
    const meAgain = (
      await t.app.inject({ url: '/api/auth/me', headers: bearer(again.json().access_token) })
    ).json();
    expect(meAgain.id).toBe(me.id);

    // Nobody can sign in to that account with a password.
    const password = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'grace.hopper@gmail.com', password: 'anything-at-all' },
    });
    expect(password.statusCode).toBe(401);
  });

  it('accepts the issuer without a scheme and falls back to the body name', async () => {
    const token = await idToken({ name: undefined }, { issuer: 'accounts.google.com' });
    const res = await googleLogin(token, { name: 'Ada From Body' });
    expect(res.statusCode, res.body).toBe(200);
    const me = (await t.app.inject({ url: '/api/auth/me', headers: bearer(res.json().access_token) })).json();
    expect(me.name).toBe('Ada From Body');
  });

  it('refuses an expired token', async () => {
    const res = await googleLogin(await idToken({}, { expiresInSec: -3600 }));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      detail: 'Google sign-in has expired; please try again',
      code: 'INVALID_GOOGLE_TOKEN',
    });
  });

  it('refuses a token issued to another client', async () => {
    const res = await googleLogin(await idToken({}, { audience: 'someone-else.apps.googleusercontent.com' }));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      detail: 'Google sign-in could not be verified',
      code: 'INVALID_GOOGLE_TOKEN',
    });
  });

  it('refuses a token from another issuer', async () => {
    const res = await googleLogin(await idToken({}, { issuer: 'https://evil.example' }));
    expect(res.statusCode).toBe(401);
  });

  it('refuses a forged token signed by another key', async () => {
    const res = await googleLogin(await idToken({}, { key: forgerKey }));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_GOOGLE_TOKEN');
    const garbage = await googleLogin('not-a-jwt');
    expect(garbage.statusCode).toBe(401);
  });

  it('refuses an unverified email', async () => {
    const res = await googleLogin(await idToken({ email_verified: false }));
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe('Google account email is not verified');
  });

  it('does not take over an account registered with a password', async () => {
    const account = newAccount('pw');
    await register(t.app, account);
    const res = await googleLogin(await idToken({ email: account.email }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'An account with this email already exists; sign in with your email and password',
      code: 'EMAIL_TAKEN',
    });
  });

  it('respects two-factor', async () => {
    const sub = '999888777';
    const first = (await googleLogin(await idToken({ sub }))).json();
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/2fa/setup',
      headers: bearer(first.access_token),
    });
    const { secret } = setup.json();
    await t.app.inject({
      method: 'POST',
      url: '/api/2fa/enable',
      headers: bearer(first.access_token),
      payload: { token: await totp(secret, t.clock) },
    });
    t.clock.advance(30_000);
    const second = (await googleLogin(await idToken({ sub }))).json();
    expect(second.requires_2fa).toBe(true);
    expect(second.refresh_token).toBe('');
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/2fa/verify',
      headers: bearer(second.access_token),
      payload: { token: await totp(secret, t.clock) },
    });
    expect(verified.statusCode).toBe(200);
  });

  it('answers 501 when GOOGLE_CLIENT_ID is not set', async () => {
    const off = await authTestApp(database.db);
    try {
      const res = await off.app.inject({
        method: 'POST',
        url: '/api/auth/google-login',
        payload: { email: 'a@b.co', name: 'A', picture: '', session_token: await idToken() },
      });
      expect(res.statusCode).toBe(501);
      expect(res.json()).toEqual({
        detail: 'Google sign-in is not configured',
        code: 'GOOGLE_NOT_CONFIGURED',
      });
    } finally {
      await off.close();
    }
  });
});
