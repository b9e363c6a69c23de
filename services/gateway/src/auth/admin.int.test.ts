import { createMetricsRegistry } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyPluginAsync } from 'fastify';
import { buildApp } from '../app';
import { memoryLogger } from '../testing/test-app';
import {
  adminToken,
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from './testing/auth-test-app';

/** An admin route of a later feature whose author "forgot" the guard. */
const laterAdminFeature: FastifyPluginAsync = async (app) => {
  app.get('/api/admin/settings', async () => ({ payout_pct: 80 }));
  app.post('/api/admin/settings', async () => ({ status: 'ok' }));
};

describe('roles and the admin area', () => {
  let database: TestDatabase;
  let t: AuthTestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await authTestApp(database.db, { plugins: [laterAdminFeature] });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('guards admin routes of later plugins that do not ask for it, before parsing bodies', async () => {
    const account = newAccount();
    await register(t.app, account);
    const userToken = (await login(t.app, account.email, account.password)).access_token;
    expect((await t.app.inject({ url: '/api/admin/settings' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/settings', headers: bearer(userToken) })).statusCode).toBe(
      403,
    );
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/admin/settings',
      headers: { ...bearer(userToken), 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(malformed.statusCode).toBe(403);
    const ok = await t.app.inject({
      url: '/api/admin/settings',
      headers: bearer(await adminToken(t.app, database.db)),
    });
    expect(ok.json()).toEqual({ payout_pct: 80 });
  });

  it('takes admin rights away at once when the role changes', async () => {
    const account = newAccount('demoted');
    const { id } = await register(t.app, account);
    await database.db.updateTable('users').set({ role: 'admin' }).where('id', '=', id).execute();
    const token = (await login(t.app, account.email, account.password)).access_token;
    expect((await t.app.inject({ url: '/api/admin/settings', headers: bearer(token) })).statusCode).toBe(200);
    await database.db.updateTable('users').set({ role: 'user' }).where('id', '=', id).execute();
    expect((await t.app.inject({ url: '/api/admin/settings', headers: bearer(token) })).statusCode).toBe(403);
  });

  it('refuses to start when an admin route is registered without the auth plugin', async () => {
    const app = buildApp({
      config: { CONSOLE_DIR: '/nonexistent', CORS_ORIGINS: [], BODY_LIMIT_BYTES: 1024 * 1024 },
      logger: memoryLogger('silent').logger,
      registry: createMetricsRegistry(),
      db: database.db,
      readiness: { migrations: [] },
      plugins: [laterAdminFeature],
    });
    await expect(app.ready()).rejects.toThrow(/admin routes need createAuthPlugin/);
    await app.close();
  });
});
