import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '@updown/gateway';
import { DEFAULT_SCRYPT, fakeConsoleDir, memoryLogger, setPasswordHash } from '@updown/gateway/testing';
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
    const session = await fx.call<Tokens>('POST', '/api/2fa/verify', temporary.access_token, { token: code });
    const next = await fx.call<Tokens>('POST', `/api/auth/refresh?refresh_token=${session.refresh_token}`);
    // The successor used, so the first token presented again is a replay, not a lost answer.
    const latest = await fx.call<Tokens>('POST', `/api/auth/refresh?refresh_token=${next.refresh_token}`);
    const replay = await fx.inject({
      method: 'POST',
      url: `/api/auth/refresh?refresh_token=${session.refresh_token}`,
    });
    expect(replay.statusCode).toBe(401);
    await fx.call('POST', `/api/auth/logout?refresh_token=${latest.refresh_token}`);
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
    for (const url of ['/api/2fa/enable', '/api/2fa/disable']) {
      const current = await fx.totpCode(totp);
      codes.push(current);
      await fx.call('POST', url, other.accessToken, { token: current });
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
      browser.json<Tokens>().access_token,
      renewed.json<Tokens>().access_token,
    );

    // A wrong password, money in and out, placements (one retried), an admin decision.
    const wrong = `wrong-${randomBytes(6).toString('hex')}`;
    secrets.push(wrong);
    const refused = await fx.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: owner.email, password: wrong },
    });
    expect(refused.statusCode).toBe(401);
    await fx.deposit(owner, 50);
    const withdrawal = await fx.call<{ request: { id: string } }>(
      'POST',
      '/api/wallet/withdraw',
      owner.accessToken,
      {
        amount: 5,
        account_type: 'real',
      },
    );
    await fx.call('POST', `/api/admin/withdrawals/${withdrawal.request.id}`, admin.accessToken, {
      action: 'approve',
    });
    for (let i = 0; i < 2; i++) {
      const res = await fx.inject({
        method: 'POST',
        url: '/api/trades/place',
        headers: { authorization: `Bearer ${owner.accessToken}`, 'idempotency-key': 'hygiene-1' },
        payload: PLACE_TRADE_BODY,
      });
      expect(res.statusCode).toBe(i === 0 ? 201 : 200);
    }
    // Refused credentials are logged as refusals, never as values.
    for (const token of [fx.expiredAccessToken(), fx.tamperedAccessToken(), temporary.access_token]) {
      secrets.push(token);
      const res = await fx.inject({ url: '/api/wallet', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
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
    const base = `http://127.0.0.1:${fx.port}`;
    const bearer = { authorization: `Bearer ${fx.principals.owner.accessToken}` };
    const answers: Array<[string, Response, number]> = [
      ['an API answer', await fetch(`${base}/api/auth/me`, { headers: bearer }), 200],
      ['a refusal', await fetch(`${base}/api/wallet`), 401],
      ['a validation error', await fetch(`${base}/api/auth/login`, jsonPost({})), 400],
      ['an unknown API path', await fetch(`${base}/api/nothing-here`), 404],
      // Refused by the router before any hook runs (see frameworkErrorAnswer in http/refusals.ts).
      ['a malformed URL', await fetch(`${base}/api/trades/%zz`), 400],
      [
        // Past the router's parameter length: no route matches, the not-found handler answers.
        'an over-long path parameter',
        await fetch(`${base}/api/trades/${'a'.repeat(200)}`, { headers: bearer }),
        404,
      ],
      ['the console page', await fetch(`${base}/`, { headers: { accept: 'text/html' } }), 200],
    ];
    for (const [what, res, status] of answers) {
      expect(res.status, what).toBe(status);
      const header = (name: string) => res.headers.get(name) ?? '';
      expect(header('content-security-policy'), what).toMatch(/default-src '(self|none)'/);
      expect(header('content-security-policy'), what).toContain("frame-ancestors 'none'");
      expect(header('x-content-type-options'), what).toBe('nosniff');
      expect(header('x-frame-options'), what).toBe('DENY');
      expect(header('referrer-policy'), what).toBe('no-referrer');
      const hsts = /max-age=(\d+)/.exec(header('strict-transport-security'));
      expect(Number(hsts?.[1]), `${what}: HSTS`).toBeGreaterThanOrEqual(HSTS_MAX_AGE_SEC_MIN);
      expect(header('x-powered-by'), what).toBe('');
      if (status >= 400)
        expect(await res.json(), what).toEqual({ detail: expect.any(String), code: expect.any(String) });
    }
    const page = answers.at(-1)![1];
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // The console runs no inline script: the policy would refuse one injected into the page.
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
  });

  it("refuses a logged-out session's access token at once, on every kind of route", async () => {
    const { owner } = fx.principals;
    const session = await fx.login(owner);
    const bearerHeader = { authorization: `Bearer ${session.access_token}` };
    expect((await fx.inject({ url: '/api/wallet', headers: bearerHeader })).statusCode).toBe(200);
    await fx.call('POST', '/api/auth/logout', undefined, { refresh_token: session.refresh_token });
    const requests = [
      { method: 'GET' as const, url: '/api/wallet' },
      { method: 'GET' as const, url: '/api/trades/active' },
      { method: 'POST' as const, url: '/api/trades/place', payload: PLACE_TRADE_BODY },
      { method: 'POST' as const, url: '/api/wallet/withdraw', payload: { amount: 1, account_type: 'real' } },
    ];
    for (const request of requests) {
      const res = await fx.inject({ ...request, headers: bearerHeader });
      expect(res.statusCode, request.url).toBe(401);
      expect(res.json(), request.url).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    // The owner's other session (the fixture's) is untouched.
    expect(
      (await fx.inject({ url: '/api/wallet', headers: { authorization: `Bearer ${owner.accessToken}` } }))
        .statusCode,
    ).toBe(200);
  });

  it('a stolen refresh token neither locks the owner out nor goes unnoticed', async () => {
    // The owner at home, the thief elsewhere with a copy of the owner's refresh token.
    const home = { remoteAddress: '198.51.100.20', headers: { 'user-agent': 'OwnerBrowser/1.0' } };
    const away = { remoteAddress: '203.0.113.99', headers: { 'user-agent': 'ThiefTool/2.0' } };
    const owner = await fx.freshUser('stolen');
    const stolen = await fx.login(owner);

    // The thief renews first: a session, but a refresh is no step-up, so no authenticator of theirs.
    const theirs = await fx.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: stolen.refresh_token },
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
      payload: { refresh_token: stolen.refresh_token },
      ...home,
    });
    expect(owners.statusCode).toBe(401);
    const wallet = await fx.inject({ url: '/api/wallet', headers: thiefBearer, ...pick(away) });
    expect(wallet.statusCode).toBe(401);

    // The owner signs in with the password as before (no code was bound) and is told why.
    const again = await fx.login(owner);
    expect(again.requires_2fa).toBe(false);
    const activity = await fx.call<{ events: Array<{ kind: string; description: string }> }>(
      'GET',
      '/api/auth/security-activity',
      again.access_token,
    );
    expect(activity.events.map((event) => event.kind)).toContain('refresh_token_reused');
  });

  it('refuses forged access tokens of every kind', async () => {
    const { owner } = fx.principals;
    const now = Math.floor(fx.clock.now() / 1000);
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
    for (const [what, token] of forged) {
      const res = await fx.inject({
        url: '/api/admin/settings',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, what).toBe(401);
    }
    // The control: the same claims, correctly signed, are an admin's (the role is then read again).
    const genuine = signHs256(fx.jwtSecret, { ...claims, sub: fx.principals.admin.id });
    const res = await fx.inject({
      url: '/api/admin/settings',
      headers: { authorization: `Bearer ${genuine}` },
    });
    expect(res.statusCode).toBe(200);
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
    const at = new Date(fx.clock.now());
    await setPasswordHash(fx.platform.database.db, weak.id, weakHash, at);
    await fx.login(weak);
    const upgraded = await storedHash(weak.id);
    expect(upgraded).toMatch(
      new RegExp(`^scrypt\\$${DEFAULT_SCRYPT.N}\\$${DEFAULT_SCRYPT.r}\\$${DEFAULT_SCRYPT.p}\\$`),
    );
    await fx.login(weak);

    // Parameters beyond the hasher's bounds would take gigabytes: refused like a wrong password.
    const hostile = await fx.freshUser('hostile-hash');
    const tail = (await storedHash(hostile.id)).split('$').slice(4).join('$');
    await setPasswordHash(fx.platform.database.db, hostile.id, `scrypt$${2 ** 24}$8$1$${tail}`, at);
    const res = await fx.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: hostile.email, password: hostile.password },
    });
    expect(res.statusCode).toBe(401);
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

interface Tokens {
  access_token: string;
  refresh_token: string;
}

function pick(client: { remoteAddress: string }): { remoteAddress: string } {
  return { remoteAddress: client.remoteAddress };
}

function jsonPost(body: object): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
