import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances, verifyLedger } from '@updown/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashRefreshToken } from '@updown/accounts';
import { authTestApp, bearer, login, newAccount, register, type AuthTestApp } from './testing/auth-test-app';

/** Registration, password sign-in, refresh rotation with reuse detection, logout. */
describe('accounts and sessions', () => {
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

  it('registers, signs in, reads me, refreshes, logs out, then refresh fails', async () => {
    const account = newAccount();
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...account, email: `  ${account.email.toUpperCase()} ` },
    });
    expect(registered.statusCode).toBe(201);
    const user = registered.json();
    expect(user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: account.email,
      name: account.name,
      role: 'user',
      twofa_enabled: false,
    });

    const tokens = await login(t.app, account.email.toUpperCase(), account.password);
    expect(tokens).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      requires_2fa: false,
    });

    const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(tokens.access_token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(user);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: `/api/auth/refresh?refresh_token=${tokens.refresh_token}`,
    });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json();
    expect(Object.keys(next).sort()).toEqual(['access_token', 'refresh_token']);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    const meAgain = await t.app.inject({ url: '/api/auth/me', headers: bearer(next.access_token) });
    expect(meAgain.json()).toEqual(user);

    const logout = await t.app.inject({
      method: 'POST',
      url: `/api/auth/logout?refresh_token=${next.refresh_token}`,
    });
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ status: 'ok' });

    const afterLogout = await t.app.inject({
      method: 'POST',
      url: `/api/auth/refresh?refresh_token=${next.refresh_token}`,
    });
    expect(afterLogout.statusCode).toBe(401);
    expect(afterLogout.json()).toEqual({
      detail: 'Invalid or expired refresh token',
      code: 'INVALID_REFRESH_TOKEN',
    });
  });

  it('grants 10,000.00 on demo through the ledger and nothing on real', async () => {
    const { id } = await register(t.app, newAccount());
    const balances = await getUserBalances(database.db, id);
    expect(balances.demo).toBe(1_000_000);
    expect(balances.real).toBe(0);
    expect(balances.bonus).toBe(0);
    const entry = await database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'idempotency_key'])
      .where('idempotency_key', '=', `demo_grant:${id}`)
      .executeTakeFirstOrThrow();
    expect(entry.kind).toBe('demo_grant');
    const report = await verifyLedger(database.db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('stores a memory-hard hash, never the password, and refresh tokens only as hashes', async () => {
    const account = newAccount();
    const { id } = await register(t.app, account);
    const tokens = await login(t.app, account.email, account.password);
    const row = await database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(row.password_hash).not.toContain(account.password);
    const stored = await database.db
      .selectFrom('refresh_tokens')
      .select('token_hash')
      .where('user_id', '=', id)
      .execute();
    expect(stored.map((s) => s.token_hash)).toEqual([hashRefreshToken(tokens.refresh_token)]);
  });

  it('refuses a duplicate email whatever its case', async () => {
    const account = newAccount();
    await register(t.app, account);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newAccount(), email: account.email.toUpperCase() },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: 'An account with this email already exists',
      code: 'EMAIL_TAKEN',
    });
  });

  it('lets only one of two simultaneous registrations of one email win', async () => {
    const account = newAccount();
    const answers = await Promise.all(
      [0, 1].map(() => t.app.inject({ method: 'POST', url: '/api/auth/register', payload: account })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it('explains a password that breaks the policy', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newAccount(), password: 'short' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Password must be at least 8 characters',
      code: 'INVALID_ACCOUNT_DETAILS',
    });
    const long = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newAccount(), password: 'x'.repeat(129) },
    });
    expect(long.json().detail).toBe('Password must be at most 128 characters');
  });

  it('refuses a bad email and an unknown body field', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newAccount(), email: 'not-an-email' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe('Enter a valid email address');
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newAccount(), role: 'admin' },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toEqual({ detail: 'role is not allowed', code: 'VALIDATION' });
  });

  it('answers a wrong password and an unknown email identically', async () => {
    const account = newAccount();
    await register(t.app, account);
    const wrongPassword = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: 'wrong-password' },
    });
    const unknownEmail = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: `nobody.${account.email}`, password: 'wrong-password' },
    });
    for (const res of [wrongPassword, unknownEmail]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
    }
  });

  it('spends the same hashing time whether or not the email exists', async () => {
    const account = newAccount();
    await register(t.app, account);
    const time = async (email: string) => {
      const started = performance.now();
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'wrong-pass' },
      });
      return performance.now() - started;
    };
    // Interleaved and compared by median so a noisy neighbour does not decide the result.
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(account.email));
      unknown.push(await time(`ghost-${i}.${account.email}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] ?? 0;
    // Both pay for one scrypt (~100 ms); without the dummy hash the unknown email would take ~1 ms.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('revokes the whole family when a spent refresh token is presented again', async () => {
    const account = newAccount();
    await register(t.app, account);
    const first = await login(t.app, account.email, account.password);
    const refresh = (token: string) =>
      t.app.inject({ method: 'POST', url: `/api/auth/refresh?refresh_token=${token}` });

    const second = (await refresh(first.refresh_token)).json();
    const third = (await refresh(second.refresh_token)).json();
    expect(typeof third.refresh_token).toBe('string');

    // An attacker replays the first (already spent) token: refused, and the alarm revokes the family.
    const replay = await refresh(first.refresh_token);
    expect(replay.statusCode).toBe(401);
    // The legitimate holder's current (descendant) token no longer works either.
    const descendant = await refresh(third.refresh_token);
    expect(descendant.statusCode).toBe(401);
    const reasons = await database.db
      .selectFrom('refresh_tokens as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select('r.revoked_reason')
      .where('u.email', '=', account.email)
      .execute();
    expect(reasons.map((r) => r.revoked_reason)).toContain('reuse');

    // Another session of the same user (another login, another family) is untouched.
    const other = await login(t.app, account.email, account.password);
    expect((await refresh(other.refresh_token)).statusCode).toBe(200);
  });

  describe('a spent token whose successor never arrived', () => {
    const refresh = (token: string) =>
      t.app.inject({ method: 'POST', url: `/api/auth/refresh?refresh_token=${token}` });
    const liveTokens = async (email: string) =>
      database.db
        .selectFrom('refresh_tokens as r')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .select(['r.id', 'r.token_hash'])
        .where('u.email', '=', email)
        .where('r.rotated_at', 'is', null)
        .where('r.revoked_at', 'is', null)
        .execute();

    it('is exchanged again within the grace period, and the lost successor then raises the alarm', async () => {
      const account = newAccount();
      await register(t.app, account);
      const first = await login(t.app, account.email, account.password);
      // The answer carrying `lost` never reaches the client (it left the page mid-call).
      const lost = (await refresh(first.refresh_token)).json().refresh_token as string;
      t.clock.advance(29_000);

      const again = await refresh(first.refresh_token);
      expect(again.statusCode).toBe(200);
      const current = again.json();
      expect(current.refresh_token).not.toBe(lost);
      expect(
        (await t.app.inject({ url: '/api/auth/me', headers: bearer(current.access_token) })).statusCode,
      ).toBe(200);
      // One live token in the family: the reissued one. The lost one was retired unused.
      expect((await liveTokens(account.email)).map((row) => row.token_hash)).toEqual([
        hashRefreshToken(current.refresh_token),
      ]);

      // Whoever presents the retired successor holds a copy nobody should: the family is revoked.
      expect((await refresh(lost)).statusCode).toBe(401);
      expect((await refresh(current.refresh_token)).statusCode).toBe(401);
      expect(
        (await t.app.inject({ url: '/api/auth/me', headers: bearer(current.access_token) })).statusCode,
      ).toBe(401);
    });

    it('counts as stolen after the grace period', async () => {
      const account = newAccount();
      await register(t.app, account);
      const first = await login(t.app, account.email, account.password);
      const second = (await refresh(first.refresh_token)).json().refresh_token as string;
      t.clock.advance(30_000);

      expect((await refresh(first.refresh_token)).statusCode).toBe(401);
      expect((await refresh(second)).statusCode).toBe(401);
      expect(await liveTokens(account.email)).toEqual([]);
    });

    it('serves two refreshes sent at once with one token (two tabs, one cookie) and leaves one live token', async () => {
      const account = newAccount();
      await register(t.app, account);
      const first = await login(t.app, account.email, account.password);

      const answers = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      const issued = answers.map((answer) => answer.json().refresh_token as string);
      const live = await liveTokens(account.email);
      expect(live).toHaveLength(1);
      const [kept] = issued.filter((token) => hashRefreshToken(token) === live[0]?.token_hash);
      expect(kept).toBeDefined();
      expect((await refresh(kept as string)).statusCode).toBe(200);
    });
  });

  it('refuses an expired refresh token', async () => {
    const account = newAccount();
    await register(t.app, account);
    const tokens = await login(t.app, account.email, account.password);
    t.clock.advance(30 * 24 * 3600 * 1000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/refresh?refresh_token=${tokens.refresh_token}`,
    });
    expect(res.statusCode).toBe(401);
  });

  it('answers ok to logout with an unknown token and 400 without one', async () => {
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/logout?refresh_token=nothing' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ status: 'ok' });
    const missing = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      detail:
        'refresh_token is required, in the JSON body {"refresh_token": "..."} (or, from a browser, the session cookie with its X-CSRF-Token header)',
      code: 'VALIDATION',
    });
  });

  it('takes the refresh token in the JSON body for refresh and logout', async () => {
    const account = newAccount('body');
    await register(t.app, account);
    const tokens = await login(t.app, account.email, account.password);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = refreshed.json<{ access_token: string; refresh_token: string }>();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    // The same token in both places is one token.
    const both = await t.app.inject({
      method: 'POST',
      url: `/api/auth/logout?refresh_token=${next.refresh_token}`,
      payload: { refresh_token: next.refresh_token },
    });
    expect(both.json()).toEqual({ status: 'ok' });
    const afterLogout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: next.refresh_token },
    });
    expect(afterLogout.statusCode).toBe(401);
  });

  it('refuses a refresh with no token, or with a body and a query that disagree, and spends nothing', async () => {
    const account = newAccount('disagree');
    await register(t.app, account);
    const tokens = await login(t.app, account.email, account.password);
    for (const url of ['/api/auth/refresh', '/api/auth/logout']) {
      const differ = await t.app.inject({
        method: 'POST',
        url: `${url}?refresh_token=someone-else`,
        payload: { refresh_token: tokens.refresh_token },
      });
      expect(differ.statusCode).toBe(400);
      expect(differ.json()).toEqual({
        detail: 'refresh_token differs between the body and the query string; send it once, in the body',
        code: 'VALIDATION',
      });
      const empty = await t.app.inject({ method: 'POST', url, payload: {} });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().detail).toBe('refresh_token is required');
      const none = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
      });
      expect(none.statusCode).toBe(400);
      expect(none.json().detail).toMatch(/^refresh_token is required/);
    }
    // Nothing was spent or revoked: the token still refreshes once.
    const still = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(still.statusCode, still.body).toBe(200);
  });

  it('requires a valid, unexpired access token for me', async () => {
    const anonymous = await t.app.inject({ url: '/api/auth/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'Not authenticated', code: 'UNAUTHORIZED' });
    const garbage = await t.app.inject({ url: '/api/auth/me', headers: bearer('not.a.token') });
    expect(garbage.json()).toEqual({ detail: 'Invalid or expired token', code: 'UNAUTHORIZED' });

    const account = newAccount();
    await register(t.app, account);
    const tokens = await login(t.app, account.email, account.password);
    t.clock.advance(15 * 60 * 1000);
    const expired = await t.app.inject({ url: '/api/auth/me', headers: bearer(tokens.access_token) });
    expect(expired.statusCode).toBe(401);
  });

  it('refuses an access token signed with another key', async () => {
    const other = await authTestApp(database.db, { config: { JWT_SECRET: 'z'.repeat(48) } });
    try {
      const account = newAccount();
      await register(other.app, account);
      const foreign = await login(other.app, account.email, account.password);
      const res = await t.app.inject({ url: '/api/auth/me', headers: bearer(foreign.access_token) });
      expect(res.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('documents the auth routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/register',
        '/api/auth/login',
        '/api/auth/refresh',
        '/api/auth/logout',
        '/api/auth/me',
        '/api/auth/google-login',
        '/api/2fa/setup',
        '/api/2fa/enable',
        '/api/2fa/verify',
        '/api/2fa/disable',
      ]),
    );
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/auth/login'].post.security).toBeUndefined();
  });
});
