import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../testing/test-app';
import { EndedSessions, revokeUserSessions } from '@updown/accounts';
import { authTestApp, bearer, login, newAccount, register, type AuthTestApp } from './testing/auth-test-app';

const COOKIE_FORM = { 'x-updown-session': 'cookie' };

function cookie(res: LightMyRequestResponse, name: string) {
  const found = res.cookies.find((each) => each.name === name);
  if (!found) throw new Error(`no ${name} cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return found;
}

/** Sign-in in the cookie form: what a browser holds afterwards. */
async function cookieLogin(t: AuthTestApp, account: { email: string; password: string }) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: COOKIE_FORM,
    payload: { email: account.email, password: account.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return {
    res,
    accessToken: res.json<{ access_token: string }>().access_token,
    refresh: cookie(res, 'updown_refresh').value,
    csrf: cookie(res, 'updown_csrf').value,
  };
}

const me = (t: AuthTestApp, token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });

/** A logout in the body form, as a client that is not a browser sends it. */
const logout = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refresh_token: refreshToken } });

const refreshByCookie = (t: AuthTestApp, refresh: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { updown_refresh: refresh }, headers });

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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

/** The session id an access token carries. */
function sessionIdOf(accessToken: string): string {
  const payload = Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString();
  return (JSON.parse(payload) as { sid: string }).sid;
}

describe('sessions: the refresh token out of script reach, and access tokens that end with the session', () => {
  it('sets the refresh token as an HttpOnly, SameSite=Strict cookie scoped to the auth routes, and leaves it out of the body', async () => {
    const account = newAccount('cookie');
    await register(t.app, account);
    const { res } = await cookieLogin(t, account);
    expect(res.json()).toMatchObject({ refresh_token: '', requires_2fa: false });
    expect(res.json<{ access_token: string }>().access_token).not.toBe('');

    const refresh = cookie(res, 'updown_refresh');
    expect(refresh).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/auth',
      maxAge: 30 * 24 * 3600,
    });
    expect(refresh.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Development and test serve plain http; production marks both cookies Secure (below).
    expect(refresh.secure).toBeUndefined();
    const csrf = cookie(res, 'updown_csrf');
    expect(csrf.httpOnly).toBeUndefined();
    expect(csrf).toMatchObject({ sameSite: 'Strict', path: '/' });
  });

  it('marks the cookies Secure in production', async () => {
    const production = await authTestApp(database.db, { config: { UPDOWN_ENV: 'production' } });
    try {
      const account = newAccount('secure');
      await register(production.app, account);
      const { res } = await cookieLogin(production, account);
      expect(cookie(res, 'updown_refresh').secure).toBe(true);
      expect(cookie(res, 'updown_csrf').secure).toBe(true);
      expect(String(res.headers['set-cookie'])).toMatch(
        /updown_refresh=[^;]+;.*HttpOnly.*Secure|Secure.*HttpOnly/,
      );
    } finally {
      await production.close();
    }
  });

  it('keeps the body form for clients that are not browsers: no cookie, the token in the body', async () => {
    const account = newAccount('body-form');
    await register(t.app, account);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    expect(res.headers['set-cookie']).toBeUndefined();
    const { refresh_token: token } = res.json<{ refresh_token: string }>();
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: token },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json<{ refresh_token: string }>().refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(refreshed.headers['set-cookie']).toBeUndefined();
  });

  it('refreshes by cookie with the CSRF header, rotating the cookie', async () => {
    const account = newAccount('rotate');
    await register(t.app, account);
    const session = await cookieLogin(t, account);
    const res = await refreshByCookie(t, session.refresh, { 'x-csrf-token': session.csrf });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ refresh_token: '' });
    const next = cookie(res, 'updown_refresh').value;
    expect(next).not.toBe(session.refresh);
    // The CSRF token belongs to the session, so it holds across rotations.
    expect(cookie(res, 'updown_csrf').value).toBe(session.csrf);
    expect((await me(t, res.json<{ access_token: string }>().access_token)).statusCode).toBe(200);
    // Once the new cookie has been used, the spent one is a reused token: the family ends, as with
    // the body form.
    const after = await refreshByCookie(t, next, { 'x-csrf-token': session.csrf });
    expect(after.statusCode).toBe(200);
    const latest = cookie(after, 'updown_refresh').value;
    expect((await refreshByCookie(t, session.refresh, { 'x-csrf-token': session.csrf })).statusCode).toBe(
      401,
    );
    expect((await refreshByCookie(t, latest, { 'x-csrf-token': session.csrf })).statusCode).toBe(401);
  });

  it('refuses a forged request that carries only the cookie, and changes nothing', async () => {
    const victim = newAccount('csrf-victim');
    const attacker = newAccount('csrf-attacker');
    await register(t.app, victim);
    await register(t.app, attacker);
    const session = await cookieLogin(t, victim);
    const other = await cookieLogin(t, attacker);

    const attempts: Array<[string, Record<string, string>]> = [
      ['no CSRF header', {}],
      ['the session form header but no CSRF token', COOKIE_FORM],
      ["another session's CSRF token", { 'x-csrf-token': other.csrf }],
      ['the refresh token itself as the CSRF token', { 'x-csrf-token': session.refresh }],
      ['an empty CSRF token', { 'x-csrf-token': '' }],
    ];
    for (const [what, headers] of attempts) {
      const refresh = await refreshByCookie(t, session.refresh, headers);
      expect(refresh.statusCode, what).toBe(403);
      expect(refresh.json(), what).toMatchObject({ code: 'CSRF_REJECTED' });
      expect(refresh.json<{ detail: string }>().detail).toContain('X-CSRF-Token');
      expect(refresh.headers['set-cookie'], what).toBeUndefined();
      const logout = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        cookies: { updown_refresh: session.refresh },
        headers,
      });
      expect(logout.statusCode, what).toBe(403);
    }
    // Nothing was rotated, revoked or ended: the session goes on, and its cookie still refreshes.
    expect((await me(t, session.accessToken)).statusCode).toBe(200);
    const honest = await refreshByCookie(t, session.refresh, { 'x-csrf-token': session.csrf });
    expect(honest.statusCode, honest.body).toBe(200);
  });

  it('logs out by cookie: the cookies are cleared and the access token is refused at once', async () => {
    const account = newAccount('cookie-logout');
    await register(t.app, account);
    const session = await cookieLogin(t, account);
    expect((await me(t, session.accessToken)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { updown_refresh: session.refresh },
      headers: { 'x-csrf-token': session.csrf },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const name of ['updown_refresh', 'updown_csrf']) {
      const cleared = cookie(res, name);
      expect(cleared.value).toBe('');
      expect(cleared.expires?.getTime() ?? 0).toBeLessThan(Date.now());
    }
    const after = await me(t, session.accessToken);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: 'This session has ended; sign in again', code: 'UNAUTHORIZED' });
    expect((await refreshByCookie(t, session.refresh, { 'x-csrf-token': session.csrf })).statusCode).toBe(
      401,
    );
  });

  it('ends the access token at once on a logout with the body form too, and only that session', async () => {
    const account = newAccount('logout');
    await register(t.app, account);
    const phone = await login(t.app, account.email, account.password);
    const laptop = await login(t.app, account.email, account.password);
    const res = await logout(phone.refresh_token);
    expect(res.statusCode).toBe(200);
    expect((await me(t, phone.access_token)).statusCode).toBe(401);
    // Routes of other features use the same hook.
    expect((await me(t, laptop.access_token)).statusCode).toBe(200);
  });

  it('logs out everywhere: every session of the account ends, the caller included', async () => {
    const account = newAccount('everywhere');
    const bystander = newAccount('bystander');
    await register(t.app, account);
    await register(t.app, bystander);
    const phone = await login(t.app, account.email, account.password);
    const laptop = await cookieLogin(t, account);
    const other = await login(t.app, bystander.email, bystander.password);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout-all',
      headers: bearer(laptop.accessToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', sessions_ended: 2 });
    expect(cookie(res, 'updown_refresh').value).toBe('');

    for (const token of [phone.access_token, laptop.accessToken])
      expect((await me(t, token)).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: phone.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await refreshByCookie(t, laptop.refresh, { 'x-csrf-token': laptop.csrf })).statusCode).toBe(401);
    expect((await me(t, other.access_token)).statusCode).toBe(200);
    // Signing in again starts a fresh session.
    expect((await me(t, (await login(t.app, account.email, account.password)).access_token)).statusCode).toBe(
      200,
    );
  });

  it('refuses log out everywhere without a live access token', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/auth/logout-all' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('changes the password: every other session ends, this one goes on', async () => {
    const account = newAccount('change');
    await register(t.app, account);
    const here = await login(t.app, account.email, account.password);
    const elsewhere = await login(t.app, account.email, account.password);
    const change = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: bearer(here.access_token),
        payload: body,
      });

    const wrong = await change({ current_password: 'not-my-password', new_password: 'a-new-password-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'The current password is not correct', code: 'WRONG_PASSWORD' });
    const short = await change({ current_password: account.password, new_password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'INVALID_ACCOUNT_DETAILS' });
    const same = await change({ current_password: account.password, new_password: account.password });
    expect(same.json()).toEqual({
      detail: 'The new password must differ from the current one',
      code: 'INVALID_ACCOUNT_DETAILS',
    });
    // None of the refusals changed anything.
    expect((await me(t, elsewhere.access_token)).statusCode).toBe(200);
    await login(t.app, account.email, account.password);

    const res = await change({ current_password: account.password, new_password: 'a-new-password-1' });
    expect(res.statusCode, res.body).toBe(200);
    // `elsewhere` and the session the check above started.
    expect(res.json()).toEqual({ status: 'ok', sessions_ended: 2 });
    expect((await me(t, elsewhere.access_token)).statusCode).toBe(401);
    expect((await me(t, here.access_token)).statusCode).toBe(200);
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    expect(old.statusCode).toBe(401);
    await login(t.app, account.email, 'a-new-password-1');
  });

  it('reaches every gateway on the database: another process refuses the ended session within its sync interval', async () => {
    const other = await authTestApp(database.db, { endedSessionsSyncMs: 50 });
    try {
      const account = newAccount('two-gateways');
      await register(t.app, account);
      const tokens = await login(t.app, account.email, account.password);
      expect((await me(other, tokens.access_token)).statusCode).toBe(200);
      await logout(tokens.refresh_token);
      await until(async () => (await me(other, tokens.access_token)).statusCode === 401);

      // An operator's password reset from the command line ends sessions the same way.
      const second = await login(t.app, account.email, account.password);
      expect((await me(other, second.access_token)).statusCode).toBe(200);
      const user = (await me(t, second.access_token)).json<{ id: string }>();
      await revokeUserSessions(database.db, user.id, 'password_reset', new Date(other.clock.nowMs()));
      await until(async () => (await me(other, second.access_token)).statusCode === 401);
    } finally {
      await other.close();
    }
  });
});

describe('EndedSessions', () => {
  const options = () => ({
    db: database.db,
    clock: t.clock,
    logger: memoryLogger('warn').logger,
    accessTokenTtlSec: 900,
  });

  it('loads the sessions ended within one token lifetime when it starts, and forgets older ones', async () => {
    const account = newAccount('loads');
    await register(t.app, account);
    const old = await login(t.app, account.email, account.password);
    const recent = await login(t.app, account.email, account.password);
    await logout(old.refresh_token);
    t.clock.advance(20 * 60_000);
    await logout(recent.refresh_token);

    const ended = new EndedSessions({ ...options(), syncMs: 60_000 });
    await ended.start();
    try {
      expect(await ended.isEnded(sessionIdOf(recent.access_token))).toBe(true);
      // Ended 20 minutes ago: every access token it issued expired 5 minutes ago.
      expect(await ended.isEnded(sessionIdOf(old.access_token))).toBe(false);
    } finally {
      ended.stop();
    }
  });

  it('asks PostgreSQL while its copy is not fresh, rather than trusting it', async () => {
    const account = newAccount('stale');
    await register(t.app, account);
    const tokens = await login(t.app, account.email, account.password);
    const sid = sessionIdOf(tokens.access_token);
    // Never synced: nothing in memory is trusted.
    const ended = new EndedSessions({ ...options(), syncMs: 60_000 });
    expect(await ended.isEnded(sid)).toBe(false);
    await logout(tokens.refresh_token);
    expect(await ended.isEnded(sid)).toBe(true);
  });
});
