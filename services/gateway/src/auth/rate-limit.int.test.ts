import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  totp,
  type AuthTestApp,
} from './testing/auth-test-app';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;

let addressSeq = 0;
/** A client address no other test has used, so the per-address ceiling of one test stays its own. */
const freshAddress = () => {
  addressSeq += 1;
  return `198.51.${Math.floor(addressSeq / 250)}.${(addressSeq % 250) + 1}`;
};

const loginFrom = (
  t: AuthTestApp,
  address: string,
  body: { email: string; password: string; totp_code?: string },
) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress: address });

const loginWith = (t: AuthTestApp, email: string, password: string, address: string) =>
  loginFrom(t, address, { email, password });

/** A 429 with `Retry-After` in whole seconds, which it returns. */
function retryAfterOf(res: LightMyRequestResponse, code = 'RATE_LIMITED'): number {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json().code).toBe(code);
  const header = res.headers['retry-after'];
  expect(header, 'Retry-After').toMatch(/^[1-9]\d*$/);
  return Number(header);
}

async function fail(t: AuthTestApp, email: string, address: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await loginWith(t, email, 'wrong-password', address);
    expect(res.statusCode, res.body).toBe(401);
  }
}

/** `times` failures in a row from one address, waiting out each delay as a patient guesser would. */
async function failPatiently(t: AuthTestApp, email: string, address: string, times: number): Promise<void> {
  for (let failed = 0; failed < times;) {
    const res = await loginWith(t, email, 'wrong-password', address);
    if (res.statusCode === 429) {
      t.clock.advance(retryAfterOf(res) * SEC);
      continue;
    }
    expect(res.statusCode, res.body).toBe(401);
    failed += 1;
  }
}

describe('the client address behind a reverse proxy', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  const fromProxy = (t: AuthTestApp, client: string, body: { email: string; password: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: body,
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': client },
    });

  it('keys the throttle on the client a listed proxy names, so the owner behind the same proxy gets in', async () => {
    const t = await authTestApp(database.db, { trustProxy: ['10.0.0.0/8'] });
    try {
      const account = newAccount('proxied');
      await register(t.app, account);
      const wrong = { email: account.email, password: 'wrong-password' };
      for (let i = 0; i < 4; i++) expect((await fromProxy(t, '203.0.113.7', wrong)).statusCode).toBe(401);
      retryAfterOf(await fromProxy(t, '203.0.113.7', wrong));
      const owner = await fromProxy(t, '198.51.100.9', { email: account.email, password: account.password });
      expect(owner.statusCode, owner.body).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('ignores X-Forwarded-For from anyone not listed: a client cannot choose its own address', async () => {
    const t = await authTestApp(database.db);
    try {
      const account = newAccount('spoofer');
      await register(t.app, account);
      const wrong = { email: account.email, password: 'wrong-password' };
      // A fresh forged address on every guess: still one address, the socket's, and slowed.
      for (let i = 0; i < 4; i++)
        expect((await fromProxy(t, `203.0.113.${i + 1}`, wrong)).statusCode).toBe(401);
      retryAfterOf(await fromProxy(t, '203.0.113.99', wrong));
    } finally {
      await t.close();
    }
  });
});

describe('sign-in throttle by account and address', () => {
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

  it('slows the attacking address ever more while the owner signs in at once from theirs', async () => {
    const victim = newAccount('victim');
    await register(t.app, victim);
    const attacker = freshAddress();
    const owner = freshAddress();

    // Three free failures, then each failure doubles the wait of the next attempt.
    await fail(t, victim.email, attacker, 4);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await loginWith(t, victim.email, 'wrong-password', attacker);
      const wait = retryAfterOf(refused);
      waits.push(wait);
      expect(refused.json().detail).toBe(
        `Too many failed attempts; try again in ${wait} second${wait === 1 ? '' : 's'}.`,
      );
      // The owner, on their own address, is not slowed at all.
      expect((await loginWith(t, victim.email, victim.password, owner)).statusCode).toBe(200);
      t.clock.advance(wait * SEC);
      await fail(t, victim.email, attacker, 1);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
  });

  it('refuses without checking the password, and hammering does not extend the wait', async () => {
    const account = newAccount('patient');
    await register(t.app, account);
    const address = freshAddress();
    await failPatiently(t, account.email, address, 6);
    // Six failures: the next attempt waits 4 s. The right password is refused like any other.
    expect(retryAfterOf(await loginWith(t, account.email, account.password, address))).toBe(4);
    for (let i = 0; i < 20; i++) await loginWith(t, account.email, 'wrong-password', address);
    t.clock.advance(3 * SEC);
    expect(retryAfterOf(await loginWith(t, account.email, account.password, address))).toBe(1);
    t.clock.advance(SEC);
    expect((await loginWith(t, account.email, account.password, address)).statusCode).toBe(200);
  });

  it('forgets that address’s failures on that account after a success, and only those', async () => {
    const account = newAccount('forgetful');
    await register(t.app, account);
    const [home, other] = [freshAddress(), freshAddress()];
    await fail(t, account.email, home, 4);
    await fail(t, account.email, other, 4);
    t.clock.advance(SEC);
    await login(t.app, account.email, account.password); // from the default address: clears nothing here
    expect((await loginWith(t, account.email, account.password, home)).statusCode).toBe(200);
    await fail(t, account.email, home, 4);
    await fail(t, account.email, other, 1);
    expect(retryAfterOf(await loginWith(t, account.email, account.password, other))).toBe(2);
  });

  it('throttles an unknown email exactly like an account', async () => {
    const real = newAccount('real');
    await register(t.app, real);
    const ghost = `ghost.${Date.now()}@example.com`;
    const answers = async (email: string) => {
      const address = freshAddress();
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await loginWith(t, email, 'wrong-password', address);
        seen.push(`${res.statusCode} ${res.body} ${res.headers['retry-after'] ?? ''}`);
      }
      return seen;
    };
    expect(await answers(ghost)).toEqual(await answers(real.email));
  });

  it('keys IPv6 clients by their /64 and IPv4-mapped clients by their IPv4 address', async () => {
    const account = newAccount('six');
    await register(t.app, account);
    for (const address of ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:aaaa::3', '2001:db8:5:6::4']) {
      expect((await loginWith(t, account.email, 'wrong-password', address)).statusCode).toBe(401);
    }
    retryAfterOf(await loginWith(t, account.email, account.password, '2001:db8:5:6:ffff::9'));
    expect((await loginWith(t, account.email, account.password, '2001:db8:5:7::1')).statusCode).toBe(200);

    const other = newAccount('mapped');
    await register(t.app, other);
    await fail(t, other.email, '203.0.113.50', 2);
    await fail(t, other.email, '::ffff:203.0.113.50', 2);
    retryAfterOf(await loginWith(t, other.email, other.password, '203.0.113.50'));
    expect((await loginWith(t, other.email, other.password, '203.0.113.51')).statusCode).toBe(200);
  });

  it('shares the state between gateway processes on one database', async () => {
    const account = newAccount('shared');
    await register(t.app, account);
    const address = freshAddress();
    await failPatiently(t, account.email, address, 5);
    const otherProcess = await authTestApp(database.db);
    try {
      otherProcess.clock.advance(t.clock.nowMs() - otherProcess.clock.nowMs());
      expect(retryAfterOf(await loginWith(otherProcess, account.email, account.password, address))).toBe(2);
    } finally {
      await otherProcess.close();
    }
  });

  it('lets at most the free failures and one more of a burst of parallel guesses be checked', async () => {
    const account = newAccount('burst');
    await register(t.app, account);
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => loginWith(t, account.email, 'wrong-password', address)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(8);
  });

  it('throttles two-factor codes by user and address too', async () => {
    const account = newAccount('codes');
    await register(t.app, account);
    const { access_token } = await login(t.app, account.email, account.password);
    // The step-up covers the client that made it: set up from the address the codes come from.
    const address = freshAddress();
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/2fa/setup',
      headers: bearer(access_token),
      payload: { password: account.password },
      remoteAddress: address,
    });
    const good = await totp(setup.json().secret, t.clock);
    const wrong = good === '000000' ? '111111' : '000000';
    const enable = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/2fa/enable',
        headers: bearer(access_token),
        payload: { token },
        remoteAddress: address,
      });
    for (let i = 0; i < 4; i++) expect((await enable(wrong)).statusCode).toBe(400);
    // The right code is refused too until the wait is over.
    expect(retryAfterOf(await enable(good))).toBe(1);
    t.clock.advance(SEC);
    expect((await enable(await totp(setup.json().secret, t.clock))).statusCode).toBe(200);
  });
});

describe('per-address ceiling across accounts', () => {
  let database: TestDatabase;
  let t: AuthTestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await authTestApp(database.db, { config: { AUTH_ADDRESS_MAX_FAILURES: 6 } });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('refuses every attempt from a stuffing address until its oldest failure ages out', async () => {
    const stuffer = freshAddress();
    const victims = [newAccount('stuffed'), newAccount('stuffed')];
    for (const victim of victims) await register(t.app, victim);
    const emails = [...victims.map((v) => v.email), 'a@example.com', 'b@example.com', 'c@example.com'];
    await fail(t, emails[0]!, stuffer, 1);
    t.clock.advance(10 * MIN);
    for (const email of emails) await fail(t, email, stuffer, 1);

    // Six failures in the hour: every attempt from there is refused, the right password too.
    const refused = await loginWith(t, victims[1]!.email, victims[1]!.password, stuffer);
    expect(retryAfterOf(refused)).toBe(50 * 60);
    expect(refused.json().detail).toBe(
      'Too many failed attempts from your network; try again in 50 minutes.',
    );
    // Other addresses are not affected.
    expect((await loginWith(t, victims[1]!.email, victims[1]!.password, freshAddress())).statusCode).toBe(
      200,
    );

    t.clock.advance(50 * MIN);
    expect((await loginWith(t, victims[1]!.email, victims[1]!.password, stuffer)).statusCode).toBe(200);
  });
});

describe('per-account ceiling: the extra step for unknown addresses', () => {
  let database: TestDatabase;
  let t: AuthTestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await authTestApp(database.db, { config: { AUTH_ACCOUNT_MAX_FAILURES: 5 } });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  const post = (url: string, token: string, payload: object, address: string) =>
    t.app.inject({ method: 'POST', url, headers: bearer(token), payload, remoteAddress: address });

  /** An account with 2FA on, signed in completely once from `home`; returns its TOTP secret. */
  async function twoFactorAccount(home: string) {
    const account = newAccount('guarded');
    await register(t.app, account);
    const { access_token } = await login(t.app, account.email, account.password);
    const { secret } = (
      await post('/api/2fa/setup', access_token, { password: account.password }, home)
    ).json();
    expect(
      (await post('/api/2fa/enable', access_token, { token: await totp(secret, t.clock) }, home)).statusCode,
    ).toBe(200);
    t.clock.advance(30 * SEC);
    const first = (await loginWith(t, account.email, account.password, home)).json();
    expect(first.requires_2fa).toBe(true);
    const verified = await post(
      '/api/2fa/verify',
      first.access_token,
      { token: await totp(secret, t.clock) },
      home,
    );
    expect(verified.statusCode, verified.body).toBe(200);
    t.clock.advance(30 * SEC);
    return { account, secret };
  }

  /** Failures of `email` from as many addresses (one each, so no delay), reaching the ceiling. */
  async function spreadFailures(email: string, count = 5): Promise<void> {
    for (let i = 0; i < count; i++) await fail(t, email, freshAddress(), 1);
  }

  it('asks an unknown address for the code, lets password and code in at once, spares known addresses', async () => {
    const home = freshAddress();
    const { account, secret } = await twoFactorAccount(home);
    await spreadFailures(account.email);
    t.clock.advance(MIN);

    const stranger = freshAddress();
    const asked = await loginWith(t, account.email, account.password, stranger);
    expect(retryAfterOf(asked, 'EXTRA_VERIFICATION_REQUIRED')).toBe(59 * 60);
    expect(asked.json().detail).toBe(
      'Too many failed sign-ins on this account. Enter your authenticator code with your password, ' +
        'or sign in from a device you have used before; otherwise try again in 59 minutes.',
    );

    // The owner at home is not asked: the usual two steps.
    const atHome = await loginWith(t, account.email, account.password, home);
    expect(atHome.statusCode).toBe(200);
    expect(atHome.json().requires_2fa).toBe(true);

    // A wrong code with the right password is refused like a wrong password.
    const credentials = { email: account.email, password: account.password };
    const code = await totp(secret, t.clock);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await loginFrom(t, stranger, { ...credentials, totp_code: wrongCode });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      detail: 'Invalid email, password or authenticator code',
      code: 'INVALID_CREDENTIALS',
    });

    // Password and current code: a session at once, no second step.
    const direct = await loginFrom(t, stranger, { ...credentials, totp_code: code });
    expect(direct.statusCode, direct.body).toBe(200);
    expect(direct.json().requires_2fa).toBe(false);
    expect(direct.json().refresh_token).not.toBe('');
    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(direct.json().access_token) });
    expect(me.json().email).toBe(account.email);
    // The code is spent.
    const replay = await loginFrom(t, freshAddress(), { ...credentials, totp_code: code });
    expect(replay.statusCode).toBe(401);

    // That address is known now.
    expect((await loginWith(t, account.email, account.password, stranger)).json().requires_2fa).toBe(true);
  });

  it('stops code guesses spread over many addresses at the account ceiling; the owner at home still verifies', async () => {
    const home = freshAddress();
    const { account, secret } = await twoFactorAccount(home);
    /** The attacker has the password: each fresh address gets a temporary token and guesses once. */
    const guessFrom = async (address: string, code: string) => {
      const first = (await loginWith(t, account.email, account.password, address)).json();
      expect(first.requires_2fa).toBe(true);
      return post('/api/2fa/verify', first.access_token, { token: code }, address);
    };
    const current = await totp(secret, t.clock);
    const wrong = current === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await guessFrom(freshAddress(), wrong)).statusCode).toBe(400);

    // A sixth address is refused before its code is looked at: even the right code.
    const refused = await guessFrom(freshAddress(), current);
    expect(retryAfterOf(refused)).toBeGreaterThan(50 * 60);
    expect(refused.json().detail).toMatch(/^Too many wrong codes for this account; try again in \d+ minutes/);

    // The owner, at home, is not concerned.
    const first = (await loginWith(t, account.email, account.password, home)).json();
    const verified = await post('/api/2fa/verify', first.access_token, { token: current }, home);
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('spares an address the account signed in from without two-factor', async () => {
    const account = newAccount('plain');
    await register(t.app, account);
    const home = freshAddress();
    expect((await loginWith(t, account.email, account.password, home)).statusCode).toBe(200);
    await spreadFailures(account.email);
    expect((await loginWith(t, account.email, account.password, home)).statusCode).toBe(200);
    retryAfterOf(
      await loginWith(t, account.email, account.password, freshAddress()),
      'EXTRA_VERIFICATION_REQUIRED',
    );
  });

  it('answers an account without two-factor and an unknown email alike', async () => {
    const account = newAccount('no2fa');
    await register(t.app, account);
    const plain = { email: account.email, password: account.password };
    const ghost = { email: `ghost.${Date.now()}@example.com`, password: account.password };
    await spreadFailures(plain.email);
    await spreadFailures(ghost.email);
    const stranger = freshAddress();

    const answer = (res: LightMyRequestResponse) =>
      `${res.statusCode} ${res.body} ${res.headers['retry-after'] ?? ''}`;
    const without = [plain, ghost].map((who) => loginWith(t, who.email, who.password, stranger));
    const [plainAsked, ghostAsked] = (await Promise.all(without)).map(answer);
    expect(plainAsked).toMatch(/^429 .*EXTRA_VERIFICATION_REQUIRED/);
    expect(plainAsked).toBe(ghostAsked);

    // A code can never be right for them, even with the right password.
    const withCode = async (who: { email: string; password: string }) =>
      answer(await loginFrom(t, stranger, { ...who, totp_code: '123456' }));
    const plainWithCode = await withCode(plain);
    expect(plainWithCode).toBe(
      '401 {"detail":"Invalid email, password or authenticator code","code":"INVALID_CREDENTIALS"} ',
    );
    expect(await withCode(ghost)).toBe(plainWithCode);
  });

  it('relaxes when the account’s failures age out', async () => {
    const account = newAccount('relaxed');
    await register(t.app, account);
    await spreadFailures(account.email);
    const stranger = freshAddress();
    expect(
      retryAfterOf(
        await loginWith(t, account.email, account.password, stranger),
        'EXTRA_VERIFICATION_REQUIRED',
      ),
    ).toBe(HOUR / SEC);
    t.clock.advance(HOUR);
    expect((await loginWith(t, account.email, account.password, stranger)).statusCode).toBe(200);
  });

  it('refuses a malformed code at the edge', async () => {
    const res = await loginFrom(t, freshAddress(), {
      email: 'x@example.com',
      password: 'whatever',
      totp_code: '12ab56',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'The authenticator code is 6 digits', code: 'VALIDATION' });
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
