import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import {
  adminToken,
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from '../auth/testing/auth-test-app';
import { createAdminPlugin } from './admin.routes';

describe('GET /api/admin/users', () => {
  let database: TestDatabase;
  let t: AuthTestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await authTestApp(database.db, {
      plugins: [createAdminPlugin({ db: database.db, clock: new ManualClock(Date.now()) })],
    });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('lists users for an admin, refuses a user (403) and a visitor (401)', async () => {
    const account = newAccount();
    const user = await register(t.app, account);
    const userToken = (await login(t.app, account.email, account.password)).access_token;
    const admin = await adminToken(t.app, database.db);

    const listed = await t.app.inject({ url: '/api/admin/users', headers: bearer(admin) });
    expect(listed.statusCode).toBe(200);
    const rows = listed.json();
    expect(rows.find((row: { id: string }) => row.id === user.id)).toEqual({
      id: user.id,
      name: account.name,
      email: account.email,
      role: 'user',
      twofa_enabled: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      stats: { real_balance: 0, demo_balance: 10_000, total_trades: 0, win_rate: 0, net_pnl: 0 },
      toxicity: null,
      limits: null,
    });
    const limited = await t.app.inject({ url: '/api/admin/users?limit=1', headers: bearer(admin) });
    expect(limited.json()).toHaveLength(1);

    const forbidden = await t.app.inject({ url: '/api/admin/users', headers: bearer(userToken) });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ detail: 'Admin access required', code: 'FORBIDDEN' });
    const anonymous = await t.app.inject({ url: '/api/admin/users' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHORIZED');
    // The HEAD route Fastify derives from the GET is guarded too.
    expect((await t.app.inject({ method: 'HEAD', url: '/api/admin/users' })).statusCode).toBe(401);
  });

  it('is documented as a Bearer route', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json();
    expect(doc.paths['/api/admin/users'].get.security).toEqual([{ bearerAuth: [] }]);
  });
});
