import type { InjectOptions } from 'fastify';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../testing/test-app';
import { ensureAdminFromEnv } from '@updown/accounts';
import { accountOpener } from './open-account.handler';
import {
  TEST_JWT_SECRET,
  authTestApp,
  bearer,
  login,
  newAccount,
  totp,
  type AuthTestApp,
} from './testing/auth-test-app';

/** Passwords, tokens, codes and secrets never reach a log line, even at the most verbose level. */
describe('secrets in logs', () => {
  let database: TestDatabase;
  let t: AuthTestApp;
  let text: () => string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const memory = memoryLogger('trace');
    text = () => JSON.stringify(memory.lines());
    t = await authTestApp(database.db, { logger: memory.logger });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('keeps a full register, login, refresh, 2FA and logout flow out of the logs', async () => {
    const account = newAccount('quiet');
    const secrets: string[] = [account.password, TEST_JWT_SECRET];
    const inject = (options: InjectOptions) => t.app.inject(options);

    expect((await inject({ method: 'POST', url: '/api/auth/register', payload: account })).statusCode).toBe(
      201,
    );
    const wrong = 'not-the-password-123';
    secrets.push(wrong);
    await inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: wrong },
    });
    const first = await login(t.app, account.email, account.password);
    secrets.push(first.access_token, first.refresh_token);

    const refreshed = (
      await inject({ method: 'POST', url: `/api/auth/refresh?refresh_token=${first.refresh_token}` })
    ).json();
    secrets.push(refreshed.access_token, refreshed.refresh_token);
    // A replay within the grace period while the successor is unused: reissued, with an info line.
    const reissued = (
      await inject({ method: 'POST', url: `/api/auth/refresh?refresh_token=${first.refresh_token}` })
    ).json();
    secrets.push(reissued.access_token, reissued.refresh_token);
    // The retired successor presented: a replay, which logs a warning about the revoked family.
    await inject({ method: 'POST', url: `/api/auth/refresh?refresh_token=${refreshed.refresh_token}` });

    const session = await login(t.app, account.email, account.password);
    secrets.push(session.access_token, session.refresh_token);
    const setup = (
      await inject({ method: 'POST', url: '/api/2fa/setup', headers: bearer(session.access_token) })
    ).json();
    secrets.push(setup.secret);
    const enableCode = await totp(setup.secret, t.clock);
    await inject({
      method: 'POST',
      url: '/api/2fa/enable',
      headers: bearer(session.access_token),
      payload: { token: enableCode },
    });
    t.clock.advance(30_000);
    const temporary = await login(t.app, account.email, account.password);
    secrets.push(temporary.access_token);
    const code = await totp(setup.secret, t.clock);
    const verified = (
      await inject({
        method: 'POST',
        url: '/api/2fa/verify',
        headers: bearer(temporary.access_token),
        payload: { token: code },
      })
    ).json();
    secrets.push(verified.access_token, verified.refresh_token);
    // The body form, then the query form on routes that do not even take a token: a token in any
    // URL is redacted, whatever the route (a 404 and a public route here).
    const bodyForm = (
      await inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: verified.refresh_token },
      })
    ).json();
    secrets.push(bodyForm.access_token, bodyForm.refresh_token);
    await inject({ method: 'GET', url: `/api/nothing-here?refresh_token=${bodyForm.refresh_token}&limit=5` });
    await inject({ method: 'GET', url: `/healthz?access_token=${bodyForm.access_token}` });
    await inject({ method: 'POST', url: `/api/auth/logout?refresh_token=${bodyForm.refresh_token}` });

    const logged = text();
    // The URL is still logged, with the credential's value replaced.
    expect(logged).toContain('/api/nothing-here?refresh_token=[redacted]&limit=5');
    expect(logged).toContain('/api/auth/logout?refresh_token=[redacted]');
    expect(logged).toContain('request completed');
    expect(logged).toContain('/api/auth/refresh');
    expect(logged).toContain('reissued');
    expect(logged).toContain('every session of the account is ended');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(6);
      expect(logged).not.toContain(secret);
    }
    // Codes are short; look for them only where they could appear, as values.
    expect(logged).not.toContain(`"${enableCode}"`);
    expect(logged).not.toContain(`"${code}"`);
  });

  it('keeps the admin password out of the start-up log', async () => {
    const memory = memoryLogger('trace');
    const config = { ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'root-password-secret' };
    await ensureAdminFromEnv(database.db, config, memory.logger, { openAccount: accountOpener(database.db) });
    await ensureAdminFromEnv(database.db, config, memory.logger, { openAccount: accountOpener(database.db) });
    expect(JSON.stringify(memory.lines())).not.toContain('root-password-secret');
  });
});
