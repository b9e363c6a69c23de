import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, signIn, type Answer } from '@updown/api-client';
import { PasswordHasher } from '@updown/accounts';
import { DEFAULT_SCRYPT, setPasswordHash } from '@updown/accounts/testing';
import { fakeConsoleDir, memoryLogger } from '@updown/gateway/testing';
import type { Schemas } from '@updown/schemas/openapi';
import {
  PLACE_TRADE_BODY,
  signHs256,
  startMatrixFixtures,
  tokenClaims,
  type MatrixFixtures,
} from './matrix-fixtures';

/**
 * What the per-module auth tests do not already prove (rate limits and the sign-in throttle are in
 * `rate-limit.int.test.ts` and `two-factor.int.test.ts`, the config rules in `auth.config.test.ts`,
 * the entry points' refusals in `production-secrets.int.test.ts`): a whole journey through the
 * real platform logs no secret, every kind of answer carries the security headers, forged tokens
 * are refused, and stored password hashes are memory-hard, with weaker ones upgraded at the next
 * sign-in.
 */

/** Memory one scrypt hash must take: 128 · N · r bytes. The default (N 2^15, r 8) takes 32 MiB. */
const SCRYPT_MEMORY_BYTES_MIN = 16 * 1024 * 1024;
/** HSTS shorter than about six months is not worth sending (and not accepted for preloading). */
const HSTS_MAX_AGE_SEC_MIN = 180 * 24 * 3600;

describe('the platform in process', () => {
  let fx: MatrixFixtures;
  let logLines: () => Record<string, unknown>[];
  let removeConsole: () => Promise<void>;

  beforeAll(async () => {
    const memory = memoryLogger('trace');
    logLines = memory.lines;
    const consoleBuild = await fakeConsoleDir();
    removeConsole = consoleBuild.cleanup;
    fx = await startMatrixFixtures({ logger: memory.logger, consoleDir: consoleBuild.dir });
  }, 120_000);
  afterAll(async () => {
    await fx?.stop();
    await removeConsole?.();
  });

  it('logs no token, TOTP secret, password or password hash anywhere in a whole journey', async () => {
    const { owner, other, admin, twoFactor } = fx.principals;
    const secrets: string[] = [
      fx.jwtSecret,
      fx.principals.revokedRefreshToken,
      fx.principals.expiredRefreshToken,
    ];
    for (const person of [owner, other, admin, twoFactor]) secrets.push(person.password, person.accessToken);
    secrets.push(twoFactor.totp.secret);
    const codes: string[] = [];

    // Two-factor sign-in, refresh, a replayed refresh token (which logs a warning), logout.
    const temporary = await fx.login(twoFactor);
    const code = await fx.totpCode(twoFactor.totp);
    codes.push(code);
    const session = await fx.api.post('/api/2fa/verify', { token: code }, { token: temporary.access_token });
    // The query form: the URL is logged, the token in it must not be.
    const inQuery = (token: string) => ({ query: { refresh_token: token } });
    const next = await fx.api.post('/api/auth/refresh', undefined, inQuery(session.refresh_token));
    // The successor used, so the first token presented again is a replay, not a lost answer.
    const latest = await fx.api.post('/api/auth/refresh', undefined, inQuery(next.refresh_token));
    const replay = await fx.api.send('post', '/api/auth/refresh', undefined, inQuery(session.refresh_token));
    expect(replay.status).toBe(401);
    await fx.api.post('/api/auth/logout', undefined, inQuery(latest.refresh_token));
    secrets.push(
      temporary.access_token,
      session.access_token,
      session.refresh_token,
      next.access_token,
      next.refresh_token,
      latest.access_token,
      latest.refresh_token,
    );

    // Two-factor on and off again for another user.
    const totp = await fx.setUpTwoFactor(other);
    secrets.push(totp.secret);
    for (const path of ['/api/2fa/enable', '/api/2fa/disable'] as const) {
      const current = await fx.totpCode(totp);
      codes.push(current);
      await fx.api.post(path, { token: current }, { token: other.accessToken });
    }

    // A browser's session: the cookie form, a refresh by cookie, a forged refresh, a logout by cookie.
    const browser = await fx.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-updown-session': 'cookie' },
      payload: { email: owner.email, password: owner.password },
    });
    const cookieOf = (res: typeof browser, name: string) =>
      res.cookies.find((c) => c.name === name)?.value ?? '';
    const csrf = cookieOf(browser, 'updown_csrf');
    const renewed = await fx.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { updown_refresh: cookieOf(browser, 'updown_refresh') },
      headers: { 'x-csrf-token': csrf },
    });
    expect(renewed.statusCode).toBe(200);
    const forgedRefresh = await fx.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { updown_refresh: cookieOf(renewed, 'updown_refresh') },
    });
    expect(forgedRefresh.statusCode).toBe(403);
    const cookieLogout = await fx.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { updown_refresh: cookieOf(renewed, 'updown_refresh') },
      headers: { 'x-csrf-token': csrf },
    });
    expect(cookieLogout.statusCode).toBe(200);
    secrets.push(
      cookieOf(browser, 'updown_refresh'),
      cookieOf(renewed, 'updown_refresh'),
      csrf,
      browser.json<Schemas['LoginResponse']>().access_token,
      renewed.json<Schemas['TokenPair']>().access_token,
    );

    // A wrong password, money in and out, placements (one retried), an admin decision.
    const wrong = `wrong-${randomBytes(6).toString('hex')}`;
    secrets.push(wrong);
    const refused = await fx.api.send('post', '/api/auth/login', { email: owner.email, password: wrong });
    expect(refused.status).toBe(401);
    await fx.deposit(owner, 50);
    const withdrawal = await fx.api.post(
      '/api/wallet/withdraw',
      { amount: 5, account_type: 'real' },
      { token: owner.accessToken },
    );
    await fx.api.post(
      '/api/admin/withdrawals/{id}',
      { action: 'approve' },
      { params: { id: withdrawal.request!.id }, token: admin.accessToken },
    );
    for (let i = 0; i < 2; i++) {
      const res = await fx.api.send('post', '/api/trades/place', PLACE_TRADE_BODY, {
        token: owner.accessToken,
        idempotencyKey: 'hygiene-1',
      });
      expect(res.status).toBe(i === 0 ? 201 : 200);
    }
    // Refused credentials are logged as refusals, never as values.
    for (const token of [fx.expiredAccessToken(), fx.tamperedAccessToken(), temporary.access_token]) {
      secrets.push(token);
      expect((await fx.api.send('get', '/api/wallet', undefined, { token })).status).toBe(401);
    }

    const hashes = await fx.platform.database.db.selectFrom('users').select('password_hash').execute();
    for (const { password_hash: hash } of hashes) secrets.push(hash, hash.split('$').at(-1)!);

    const text = JSON.stringify(logLines());
    for (const url of ['/api/2fa/verify', '/api/auth/refresh', '/api/wallet/deposit', '/api/trades/place']) {
      expect(text, `the journey is in the log: ${url}`).toContain(url);
    }
    expect(text).toContain('every session of the account is ended');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(text.includes(secret), `a secret (${secret.slice(0, 4)}…) is in the log`).toBe(false);
    }
    // Codes are six digits; look for them where they could appear, as values.
    for (const current of codes) expect(text).not.toContain(`"${current}"`);
  }, 120_000);

  it('sends the security headers on API answers, errors of every kind and the console page', async () => {
    // Over a real socket: the headers are those a browser gets, not only what the app set.
    const api = new ApiClient(`http://127.0.0.1:${fx.port}`);
    const token = fx.principals.owner.accessToken;
    const answers: Array<[string, Answer<unknown>, number]> = [
      ['an API answer', await api.send('get', '/api/auth/me', undefined, { token }), 200],
      ['a refusal', await api.send('get', '/api/wallet'), 401],
      ['a validation error', await api.raw('POST', '/api/auth/login', {}), 400],
      ['an unknown API path', await api.raw('GET', '/api/nothing-here'), 404],
      // Refused by the router before any hook runs (see frameworkErrorAnswer in http/refusals.ts).
      ['a malformed URL', await api.raw('GET', '/api/trades/%zz'), 400],
      [
        // Past the router's parameter length: no route matches, the not-found handler answers.
        'an over-long path parameter',
        await api.send('get', '/api/trades/{id}', undefined, { params: { id: 'a'.repeat(200) }, token }),
        404,
      ],
      ['the console page', await api.raw('GET', '/', undefined, { headers: { accept: 'text/html' } }), 200],
    ];
    for (const [what, res, status] of answers) {
      expect(res.status, what).toBe(status);
      const header = (name: string) => res.headers[name] ?? '';
      expect(header('content-security-policy'), what).toMatch(/default-src '(self|none)'/);
      expect(header('content-security-policy'), what).toContain("frame-ancestors 'none'");
      expect(header('x-content-type-options'), what).toBe('nosniff');
      expect(header('x-frame-options'), what).toBe('DENY');
      expect(header('referrer-policy'), what).toBe('no-referrer');
      const hsts = /max-age=(\d+)/.exec(header('strict-transport-security'));
      expect(Number(hsts?.[1]), `${what}: HSTS`).toBeGreaterThanOrEqual(HSTS_MAX_AGE_SEC_MIN);
      expect(header('x-powered-by'), what).toBe('');
      if (status >= 400)
        expect(res.body, what).toEqual({ detail: expect.any(String), code: expect.any(String) });
    }
    const page = answers.at(-1)![1];
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // The console runs no inline script: the policy would refuse one injected into the page.
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
  });

  it("refuses a logged-out session's access token at once, on every kind of route", async () => {
    const { owner } = fx.principals;
    const walletAs = (token: string) => fx.api.send('get', '/api/wallet', undefined, { token });
    const session = await signIn(fx.api, owner);
    const token = session.accessToken;
    expect((await walletAs(token)).status).toBe(200);
    await fx.api.post('/api/auth/logout', { refresh_token: session.refreshToken });
    const answers = {
      '/api/wallet': await walletAs(token),
      '/api/trades/active': await fx.api.send('get', '/api/trades/active', undefined, { token }),
      '/api/trades/place': await fx.api.send('post', '/api/trades/place', PLACE_TRADE_BODY, { token }),
      '/api/wallet/withdraw': await fx.api.send(
        'post',
        '/api/wallet/withdraw',
        { amount: 1, account_type: 'real' },
        { token },
      ),
    };
    for (const [url, res] of Object.entries(answers)) {
      expect(res.status, url).toBe(401);
      expect(res.body, url).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    // The owner's other session (the fixture's) is untouched.
    expect((await walletAs(owner.accessToken)).status).toBe(200);
  });

  it('a stolen refresh token neither locks the owner out nor goes unnoticed', async () => {
    // The owner at home, the thief elsewhere with a copy of the owner's refresh token.
    const home = { remoteAddress: '198.51.100.20', headers: { 'user-agent': 'OwnerBrowser/1.0' } };
    const away = { remoteAddress: '203.0.113.99', headers: { 'user-agent': 'ThiefTool/2.0' } };
    const owner = await fx.freshUser('stolen');
    const stolen = await signIn(fx.api, owner);

    // The thief renews first: a session, but a refresh is no step-up, so no authenticator of theirs.
    const theirs = await fx.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: stolen.refreshToken },
      ...away,
    });
    expect(theirs.statusCode).toBe(200);
    const thiefBearer = { ...away.headers, authorization: `Bearer ${theirs.json().access_token}` };
    for (const url of ['/api/2fa/setup', '/api/auth/step-up']) {
      const res = await fx.inject({ method: 'POST', url, headers: thiefBearer, ...pick(away) });
      expect([400, 403], url).toContain(res.statusCode);
      expect(res.json().detail, url).toEqual(expect.any(String));
    }
    // The owner's app presents the spent token within the grace, from its own place: the answer
    // is meant for whoever got the successor, and that was not this client. Everything ends.
    const owners = await fx.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: stolen.refreshToken },
      ...home,
    });
    expect(owners.statusCode).toBe(401);
    const wallet = await fx.inject({ url: '/api/wallet', headers: thiefBearer, ...pick(away) });
    expect(wallet.statusCode).toBe(401);

    // The owner signs in with the password as before (no code was bound) and is told why.
    const again = await fx.login(owner);
    expect(again.requires_2fa).toBe(false);
    const activity = await fx.api.get('/api/auth/security-activity', { token: again.access_token });
    expect(activity.events.map((event) => event.kind)).toContain('refresh_token_reused');
  });

  it('refuses forged access tokens of every kind', async () => {
    const { owner } = fx.principals;
    const now = Math.floor(fx.clock.nowMs() / 1000);
    // The owner's own live session id: each forgery differs from a valid token in one way only.
    const { sid } = tokenClaims(owner.accessToken);
    const claims = {
      sub: owner.id,
      role: 'admin',
      typ: 'access',
      sid,
      iss: 'updown',
      iat: now,
      exp: now + 600,
    };
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const [header, payload] = owner.accessToken.split('.') as [string, string];
    const forged: Array<[string, string]> = [
      ['alg none', `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`],
      ['no signature', `${header}.${payload}.`],
      ['signed with another key', signHs256(randomBytes(48).toString('base64url'), claims)],
      ['another issuer', signHs256(fx.jwtSecret, { ...claims, iss: 'elsewhere' })],
      ['no issuer', signHs256(fx.jwtSecret, { ...claims, iss: undefined })],
      ['no expiry', signHs256(fx.jwtSecret, { ...claims, exp: undefined })],
      ['a two-factor token claiming admin', signHs256(fx.jwtSecret, { ...claims, typ: '2fa' })],
    ];
    const settingsAs = (token: string) => fx.api.send('get', '/api/admin/settings', undefined, { token });
    for (const [what, token] of forged) expect((await settingsAs(token)).status, what).toBe(401);
    // The control: the same claims, correctly signed, are an admin's (the role is then read again).
    const genuine = signHs256(fx.jwtSecret, { ...claims, sub: fx.principals.admin.id });
    expect((await settingsAs(genuine)).status).toBe(200);
  });

  it('stores memory-hard password hashes', async () => {
    expect(128 * DEFAULT_SCRYPT.N * DEFAULT_SCRYPT.r).toBeGreaterThanOrEqual(SCRYPT_MEMORY_BYTES_MIN);
    const rows = await fx.platform.database.db.selectFrom('users').select('password_hash').execute();
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const { password_hash: hash } of rows) {
      const match = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$/.exec(hash);
      expect(match, 'an scrypt hash').not.toBeNull();
      const [N, r] = [Number(match![1]), Number(match![2])];
      expect(128 * N * r).toBeGreaterThanOrEqual(SCRYPT_MEMORY_BYTES_MIN);
    }
  });

  it('upgrades a weaker stored hash at the next sign-in and never verifies an out-of-bounds one', async () => {
    const weak = await fx.freshUser('weak-hash');
    const weakHash = await new PasswordHasher({ N: 2 ** 10, r: 8, p: 1 }).hash(weak.password);
    const at = new Date(fx.clock.nowMs());
    await setPasswordHash(fx.platform.database.db, weak.id, weakHash, at);
    await signIn(fx.api, weak);
    const upgraded = await storedHash(weak.id);
    expect(upgraded).toMatch(
      new RegExp(`^scrypt\\$${DEFAULT_SCRYPT.N}\\$${DEFAULT_SCRYPT.r}\\$${DEFAULT_SCRYPT.p}\\$`),
    );
    await signIn(fx.api, weak);

    // Parameters beyond the hasher's bounds would take gigabytes: refused like a wrong password.
    const hostile = await fx.freshUser('hostile-hash');
    const tail = (await storedHash(hostile.id)).split('$').slice(4).join('$');
    await setPasswordHash(fx.platform.database.db, hostile.id, `scrypt$${2 ** 24}$8$1$${tail}`, at);
    const res = await fx.api.send('post', '/api/auth/login', {
      email: hostile.email,
      password: hostile.password,
    });
    expect(res.status).toBe(401);
    expect(await storedHash(hostile.id)).toMatch(/^scrypt\$16777216\$/);
  });

  async function storedHash(userId: string): Promise<string> {
    const row = await fx.platform.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return row.password_hash;
  }
});

function pick(client: { remoteAddress: string }): { remoteAddress: string } {
  return { remoteAddress: client.remoteAddress };
}
