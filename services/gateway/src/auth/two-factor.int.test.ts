import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authTestApp,
  bearer,
  laterFeature,
  login,
  newAccount,
  register,
  totp,
  type AuthTestApp,
} from './testing/auth-test-app';

const PERIOD_MS = 30_000;

describe('two-factor authentication', () => {
  let database: TestDatabase;
  let t: AuthTestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await authTestApp(database.db, { plugins: [laterFeature] });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  const post = (url: string, token: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });

  /** Registers, signs in and turns 2FA on; returns the account, its secret and the code used. */
  async function userWithTwoFactor() {
    const account = newAccount('totp');
    await register(t.app, account);
    const { access_token } = await login(t.app, account.email, account.password);
    const setup = await post('/api/2fa/setup', access_token);
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json();
    const code = await totp(secret, t.clock);
    const enabled = await post('/api/2fa/enable', access_token, { token: code });
    expect(enabled.statusCode, enabled.body).toBe(200);
    return { account, secret, access_token, enableCode: code };
  }

  it('sets up with a secret, an otpauth URL and a QR code', async () => {
    const account = newAccount('setup');
    await register(t.app, account);
    const { access_token } = await login(t.app, account.email, account.password);
    const res = await post('/api/2fa/setup', access_token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(body.otpauth_url).toBe(
      `otpauth://totp/Updown:${encodeURIComponent(account.email)}?secret=${body.secret}&issuer=Updown`,
    );
    expect(body.qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
    // Not on yet: only a confirming code turns it on.
    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(access_token) });
    expect(me.json().twofa_enabled).toBe(false);
    expect((await login(t.app, account.email, account.password)).requires_2fa).toBe(false);
  });

  it('refuses a wrong code at enable with a detail', async () => {
    const account = newAccount('wrong');
    await register(t.app, account);
    const { access_token } = await login(t.app, account.email, account.password);
    const noSetup = await post('/api/2fa/enable', access_token, { token: '123456' });
    expect(noSetup.statusCode).toBe(400);
    expect(noSetup.json()).toEqual({ detail: 'Start two-factor setup first', code: 'TWO_FACTOR_NOT_SET_UP' });
    const { secret } = (await post('/api/2fa/setup', access_token)).json();
    const good = await totp(secret, t.clock);
    const wrong = good === '000000' ? '111111' : '000000';
    const res = await post('/api/2fa/enable', access_token, { token: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Invalid verification code', code: 'INVALID_2FA_CODE' });
    const shape = await post('/api/2fa/enable', access_token, { token: '12ab' });
    expect(shape.json().code).toBe('INVALID_2FA_CODE');
  });

  it('signs in in two steps once enabled; the temporary token opens nothing else', async () => {
    const { account, secret } = await userWithTwoFactor();
    t.clock.advance(PERIOD_MS);

    const first = await login(t.app, account.email, account.password);
    expect(first.requires_2fa).toBe(true);
    expect(first.refresh_token).toBe('');
    const temporary = first.access_token;

    // The temporary token is refused by ordinary authenticated routes, ours and later features'.
    for (const url of ['/api/auth/me', '/api/wallet']) {
      const res = await t.app.inject({ url, headers: bearer(temporary) });
      expect(res.statusCode, url).toBe(401);
    }
    expect((await post('/api/2fa/setup', temporary)).statusCode).toBe(401);

    const verified = await post('/api/2fa/verify', temporary, { token: await totp(secret, t.clock) });
    expect(verified.statusCode, verified.body).toBe(200);
    const tokens = verified.json();
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'refresh_token']);

    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(tokens.access_token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().twofa_enabled).toBe(true);
    const wallet = await t.app.inject({ url: '/api/wallet', headers: bearer(tokens.access_token) });
    expect(wallet.json()).toEqual({ user: me.json().id });
    const refreshed = await t.app.inject({
      method: 'POST',
      url: `/api/auth/refresh?refresh_token=${tokens.refresh_token}`,
    });
    expect(refreshed.statusCode).toBe(200);

    // An access token is not accepted where the temporary one is expected.
    const wrongType = await post('/api/2fa/verify', tokens.access_token, { token: '123456' });
    expect(wrongType.statusCode).toBe(401);
  });

  it('never accepts the same code twice', async () => {
    const { account, secret, enableCode } = await userWithTwoFactor();
    const temporary = (await login(t.app, account.email, account.password)).access_token;

    // The code that enabled 2FA cannot sign in within the same period.
    const replayOfEnable = await post('/api/2fa/verify', temporary, { token: enableCode });
    expect(replayOfEnable.statusCode).toBe(400);
    expect(replayOfEnable.json()).toEqual({
      detail: 'This code has already been used; wait for the next one',
      code: 'INVALID_2FA_CODE',
    });

    t.clock.advance(PERIOD_MS);
    const code = await totp(secret, t.clock);
    expect((await post('/api/2fa/verify', temporary, { token: code })).statusCode).toBe(200);

    // Someone who watched that code and has the temporary token gets nothing from it.
    const again = await post('/api/2fa/verify', temporary, { token: code });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toBe('This code has already been used; wait for the next one');
  });

  it('lets only one of two simultaneous uses of one code win', async () => {
    const { account, secret } = await userWithTwoFactor();
    t.clock.advance(PERIOD_MS);
    const temporary = (await login(t.app, account.email, account.password)).access_token;
    const code = await totp(secret, t.clock);
    const answers = await Promise.all([0, 1].map(() => post('/api/2fa/verify', temporary, { token: code })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });

  it('expires the temporary token after five minutes', async () => {
    const { account, secret } = await userWithTwoFactor();
    const temporary = (await login(t.app, account.email, account.password)).access_token;
    t.clock.advance(5 * 60_000);
    const res = await post('/api/2fa/verify', temporary, { token: await totp(secret, t.clock) });
    expect(res.statusCode).toBe(401);
  });

  it('slows down repeated wrong codes, refusing even the right one until the wait is over', async () => {
    const { account, secret } = await userWithTwoFactor();
    const temporary = (await login(t.app, account.email, account.password)).access_token;
    t.clock.advance(PERIOD_MS);
    const good = await totp(secret, t.clock);
    const wrong = good === '000000' ? '111111' : '000000';
    // Three wrong codes cost nothing; the fourth makes the next attempt wait a second.
    for (let i = 0; i < 4; i++) {
      expect((await post('/api/2fa/verify', temporary, { token: wrong })).statusCode).toBe(400);
    }
    const refused = await post('/api/2fa/verify', temporary, { token: good });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      detail: 'Too many failed attempts; try again in 1 second.',
      code: 'RATE_LIMITED',
    });
    expect(refused.headers['retry-after']).toBe('1');

    t.clock.advance(1000);
    const after = await post('/api/2fa/verify', temporary, { token: await totp(secret, t.clock) });
    expect(after.statusCode, after.body).toBe(200);
  });

  it('disables only with a valid current code', async () => {
    const { account, secret, access_token } = await userWithTwoFactor();
    t.clock.advance(PERIOD_MS);
    const good = await totp(secret, t.clock);
    const wrong = good === '000000' ? '111111' : '000000';
    const refused = await post('/api/2fa/disable', access_token, { token: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toBe('Invalid verification code');

    const disabled = await post('/api/2fa/disable', access_token, { token: good });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toEqual({ status: 'ok' });
    const after = await login(t.app, account.email, account.password);
    expect(after.requires_2fa).toBe(false);
    expect(after.refresh_token).not.toBe('');

    const notOn = await post('/api/2fa/disable', after.access_token, { token: good });
    expect(notOn.statusCode).toBe(400);
    expect(notOn.json().code).toBe('TWO_FACTOR_NOT_ENABLED');
  });

  it('refuses setup while two-factor is already on', async () => {
    const { access_token } = await userWithTwoFactor();
    const res = await post('/api/2fa/setup', access_token);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('TWO_FACTOR_ALREADY_ENABLED');
  });
});
