import { createTestDatabase, metricValue, type TestDatabase } from '@updown/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_UP_TTL_MS } from '@updown/accounts';
import {
  adminToken,
  authTestApp,
  bearer,
  laterFeature,
  newAccount,
  register,
  totp,
  type AuthTestApp,
} from './testing/auth-test-app';

const PERIOD_MS = 30_000;
/** Two clients: the owner's laptop and a thief's machine elsewhere. */
const OWNER = {
  address: '198.51.100.10',
  agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0.0.0 Safari/537.36',
};
const THIEF = {
  address: '203.0.113.66',
  agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Firefox/120.0',
};
type Client = typeof OWNER;

describe('account security', () => {
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

  function call(
    client: Client,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    token?: string,
    payload?: object,
  ) {
    return t.app.inject({
      method,
      url,
      remoteAddress: client.address,
      headers: { 'user-agent': client.agent, ...(token ? bearer(token) : {}) },
      ...(payload ? { payload } : {}),
    });
  }

  async function signIn(client: Client, account: { email: string; password: string }) {
    const res = await call(client, 'POST', '/api/auth/login', undefined, {
      email: account.email,
      password: account.password,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access_token: string; refresh_token: string };
  }

  async function owner(prefix: string) {
    const account = newAccount(prefix);
    const { id } = await register(t.app, account);
    return { account, id, session: await signIn(OWNER, account) };
  }

  const refresh = (client: Client, token: string) =>
    call(client, 'POST', '/api/auth/refresh', undefined, { refresh_token: token });

  async function activity(token: string, query = '') {
    const res = await call(OWNER, 'GET', `/api/auth/security-activity${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      events: Array<{ kind: string; description: string; address: string | null; device: string }>;
      next_cursor: string | null;
    };
  }

  async function pendingSecret(userId: string): Promise<string | null> {
    const row = await database.db
      .selectFrom('users')
      .select('twofa_pending_secret')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return row.twofa_pending_secret;
  }

  describe('step-up', () => {
    it('refuses 2FA setup once the sign-in is older than five minutes, and changes nothing', async () => {
      const { id, session } = await owner('stale');
      t.clock.advance(STEP_UP_TTL_MS);
      const res = await call(OWNER, 'POST', '/api/2fa/setup', session.access_token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        code: 'STEP_UP_REQUIRED',
        detail: expect.stringContaining('Confirm your password first'),
      });
      expect(await pendingSecret(id)).toBeNull();
      expect(await metricValue(t.registry, 'updown_step_up_total', { outcome: 'required' })).toBeGreaterThan(
        0,
      );
    });

    it('takes the password in the request, or a step-up made earlier by the same client', async () => {
      const { account, id, session } = await owner('proof');
      t.clock.advance(STEP_UP_TTL_MS);
      const wrong = await call(OWNER, 'POST', '/api/2fa/setup', session.access_token, { password: 'not-it' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('WRONG_PASSWORD');
      expect(await pendingSecret(id)).toBeNull();

      const inline = await call(OWNER, 'POST', '/api/2fa/setup', session.access_token, {
        password: account.password,
      });
      expect(inline.statusCode, inline.body).toBe(200);

      t.clock.advance(STEP_UP_TTL_MS);
      const stepUp = await call(OWNER, 'POST', '/api/auth/step-up', session.access_token, {
        password: account.password,
      });
      expect(stepUp.statusCode, stepUp.body).toBe(200);
      expect(new Date(stepUp.json().step_up_expires_at).getTime()).toBe(t.clock.nowMs() + STEP_UP_TTL_MS);
      // The claim is the session's, for this client only: the same token from elsewhere is refused.
      expect((await call(THIEF, 'POST', '/api/2fa/setup', session.access_token)).statusCode).toBe(403);
      expect((await call(OWNER, 'POST', '/api/2fa/setup', session.access_token)).statusCode).toBe(200);
    });

    it('refuses bad step-up bodies with a detail', async () => {
      const { session } = await owner('badbody');
      for (const payload of [{}, { password: 'x', extra: 1 }, { password: 'x', totp_code: '12ab' }]) {
        const res = await call(OWNER, 'POST', '/api/auth/step-up', session.access_token, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().detail).toEqual(expect.any(String));
      }
    });

    it('needs the authenticator code with the password once 2FA is on, and spends it', async () => {
      const { account, id, session } = await owner('withcode');
      const { secret } = (await call(OWNER, 'POST', '/api/2fa/setup', session.access_token)).json();
      const enable = await call(OWNER, 'POST', '/api/2fa/enable', session.access_token, {
        token: await totp(secret, t.clock),
      });
      expect(enable.statusCode, enable.body).toBe(200);
      t.clock.advance(STEP_UP_TTL_MS);

      const noCode = await call(OWNER, 'POST', '/api/auth/password', session.access_token, {
        current_password: account.password,
        new_password: 'a-brand-new-password',
      });
      expect(noCode.statusCode).toBe(400);
      expect(noCode.json().code).toBe('TWO_FACTOR_CODE_REQUIRED');
      // Nothing changed: the old password still signs in (to the second step).
      const still = await call(OWNER, 'POST', '/api/auth/login', undefined, {
        email: account.email,
        password: account.password,
      });
      expect(still.json().requires_2fa).toBe(true);

      // Turning 2FA off from a stale session: the password and a code in the request are the step-up.
      const stale = await call(OWNER, 'POST', '/api/2fa/disable', session.access_token, {
        token: await totp(secret, t.clock),
      });
      expect(stale.statusCode).toBe(403);
      t.clock.advance(PERIOD_MS);
      const code = await totp(secret, t.clock);
      const off = await call(OWNER, 'POST', '/api/2fa/disable', session.access_token, {
        token: code,
        password: account.password,
      });
      expect(off.statusCode, off.body).toBe(200);
      const user = await database.db
        .selectFrom('users')
        .select('twofa_enabled')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(user.twofa_enabled).toBe(false);
      const kinds = (await activity(session.access_token)).events.map((event) => event.kind);
      expect(kinds.slice(0, 2)).toEqual(['two_factor_disabled', 'two_factor_enabled']);
    });
  });

  describe('a stolen refresh token', () => {
    it('replayed from another client within the grace: every session ends and the owner is told', async () => {
      const { account, session } = await owner('stolen');
      const laptop = await signIn(OWNER, account);
      const renewed = await refresh(OWNER, session.refresh_token);
      expect(renewed.statusCode).toBe(200);
      const before = await metricValue(t.registry, 'updown_refresh_token_reuse_total', {
        outcome: 'revoked_other_client',
      });

      t.clock.advance(1000);
      const replay = await refresh(THIEF, session.refresh_token);
      expect(replay.statusCode).toBe(401);
      expect(replay.json().code).toBe('INVALID_REFRESH_TOKEN');
      // Signed out everywhere: both sessions' access tokens and refresh tokens are refused.
      for (const token of [renewed.json().access_token, laptop.access_token]) {
        expect((await call(OWNER, 'GET', '/api/wallet', token)).statusCode).toBe(401);
      }
      expect((await refresh(OWNER, renewed.json().refresh_token)).statusCode).toBe(401);
      expect((await refresh(OWNER, laptop.refresh_token)).statusCode).toBe(401);
      expect(
        await metricValue(t.registry, 'updown_refresh_token_reuse_total', {
          outcome: 'revoked_other_client',
        }),
      ).toBe(before + 1);
      expect(t.logs().some((line) => line.level === 40 && String(line.msg).includes('another client'))).toBe(
        true,
      );

      const fresh = await signIn(OWNER, account);
      const [latest] = (await activity(fresh.access_token)).events.slice(1);
      expect(latest).toMatchObject({
        kind: 'refresh_token_reused',
        description: 'A sign-in token was used twice, so we signed you out everywhere',
        address: THIEF.address,
        device: 'Firefox on Windows',
      });
    });

    it('replayed by its own client within the grace (an answer lost in flight): reissued', async () => {
      const { session } = await owner('lost');
      expect((await refresh(OWNER, session.refresh_token)).statusCode).toBe(200);
      t.clock.advance(1000);
      const again = await refresh(OWNER, session.refresh_token);
      expect(again.statusCode, again.body).toBe(200);
      expect((await call(OWNER, 'GET', '/api/wallet', again.json().access_token)).statusCode).toBe(200);
    });

    it('renewed by a thief cannot bind the thief’s authenticator or change the password', async () => {
      const { account, id, session } = await owner('takeover');
      const theirs = (await refresh(THIEF, session.refresh_token)).json();
      for (const [url, payload] of [
        ['/api/2fa/setup', undefined],
        ['/api/auth/password', { current_password: 'guess-1234', new_password: 'thief-password-1' }],
      ] as const) {
        const res = await call(THIEF, 'POST', url, theirs.access_token, payload);
        expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, url).toBeLessThan(500);
      }
      expect(await pendingSecret(id)).toBeNull();
      // The owner's password still works.
      await signIn(OWNER, account);
    });
  });

  describe('active sessions', () => {
    it('lists each session with device, address and the current one, and ends another one at once', async () => {
      const { account, session } = await owner('devices');
      const other = await signIn(THIEF, account);
      const list = await call(OWNER, 'GET', '/api/auth/sessions', session.access_token);
      expect(list.statusCode).toBe(200);
      const sessions = list.json().sessions as Array<Record<string, unknown>>;
      expect(sessions).toHaveLength(2);
      const mine = sessions.find((entry) => entry.current === true)!;
      const theirs = sessions.find((entry) => entry.current === false)!;
      expect(mine).toMatchObject({ address: OWNER.address, device: 'Chrome on Linux' });
      expect(theirs).toMatchObject({ address: THIEF.address, device: 'Firefox on Windows' });

      const end = await call(
        OWNER,
        'DELETE',
        `/api/auth/sessions/${String(theirs.id)}`,
        session.access_token,
      );
      expect(end.statusCode, end.body).toBe(200);
      expect((await call(THIEF, 'GET', '/api/wallet', other.access_token)).statusCode).toBe(401);
      expect((await refresh(THIEF, other.refresh_token)).statusCode).toBe(401);
      expect((await call(OWNER, 'GET', '/api/wallet', session.access_token)).statusCode).toBe(200);
      const again = await call(
        OWNER,
        'DELETE',
        `/api/auth/sessions/${String(theirs.id)}`,
        session.access_token,
      );
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('SESSION_NOT_FOUND');
      const kinds = (await activity(session.access_token)).events.map((event) => event.kind);
      expect(kinds.slice(0, 3)).toEqual(['session_ended', 'sign_in', 'sign_in']);
    });

    it("cannot end another account's session, and refuses a malformed id", async () => {
      const victim = await owner('victim');
      const intruder = await owner('intruder');
      const victimSessions = (
        await call(OWNER, 'GET', '/api/auth/sessions', victim.session.access_token)
      ).json();
      const id = victimSessions.sessions[0].id as string;
      const res = await call(OWNER, 'DELETE', `/api/auth/sessions/${id}`, intruder.session.access_token);
      expect(res.statusCode).toBe(404);
      expect((await call(OWNER, 'GET', '/api/wallet', victim.session.access_token)).statusCode).toBe(200);
      const bad = await call(OWNER, 'DELETE', '/api/auth/sessions/not-a-uuid', intruder.session.access_token);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().detail).toEqual(expect.any(String));
    });
  });

  describe('security activity', () => {
    it('tells a burst of failed sign-ins once, with the address it came from', async () => {
      const { account, session } = await owner('burst');
      for (let i = 0; i < 3; i++) {
        const res = await call(THIEF, 'POST', '/api/auth/login', undefined, {
          email: account.email,
          password: `wrong-${i}`,
        });
        expect(res.statusCode).toBe(401);
        t.clock.advance(60_000);
      }
      const events = (await activity(session.access_token)).events;
      expect(events.filter((event) => event.kind === 'sign_in_failures')).toEqual([
        expect.objectContaining({ address: THIEF.address, description: 'Several failed sign-ins in a row' }),
      ]);
    });

    it('pages newest first by cursor, and refuses a bad cursor or limit', async () => {
      const { account, session } = await owner('pages');
      for (let i = 0; i < 4; i++) await signIn(OWNER, account);
      const first = await activity(session.access_token, '?limit=3');
      expect(first.events).toHaveLength(3);
      expect(first.next_cursor).not.toBeNull();
      const second = await activity(session.access_token, `?limit=3&cursor=${first.next_cursor}`);
      expect(second.events).toHaveLength(2);
      expect(second.next_cursor).toBeNull();
      for (const query of ['?limit=0', '?limit=101', '?cursor=abc', '?cursor=-1']) {
        const res = await call(OWNER, 'GET', `/api/auth/security-activity${query}`, session.access_token);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().detail).toEqual(expect.any(String));
      }
    });

    it("shows a user's activity to an admin only", async () => {
      const { id, session } = await owner('watched');
      const admin = await adminToken(t.app, database.db);
      const res = await call(OWNER, 'GET', `/api/admin/users/${id}/security-activity`, admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().events[0]).toMatchObject({ kind: 'sign_in', address: OWNER.address });
      const asUser = await call(
        OWNER,
        'GET',
        `/api/admin/users/${id}/security-activity`,
        session.access_token,
      );
      expect(asUser.statusCode).toBe(403);
      const unknown = await call(
        OWNER,
        'GET',
        '/api/admin/users/00000000-0000-4000-8000-000000000000/security-activity',
        admin,
      );
      expect(unknown.statusCode).toBe(404);
    });
  });
});
