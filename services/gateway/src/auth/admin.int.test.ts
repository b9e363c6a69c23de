import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMetricsRegistry } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances } from '@updown/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyPluginAsync } from 'fastify';
import { buildApp } from '../app';
import { memoryLogger } from '../testing/test-app';
import { ensureAdminFromEnv, PasswordHasher } from '@updown/accounts';
import { accountOpener } from './open-account.handler';
import {
  adminToken,
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from './testing/auth-test-app';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../platform/src/admin.cli.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

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

describe('the first admin', () => {
  let database: TestDatabase;
  const hasher = new PasswordHasher();

  beforeAll(async () => {
    database = await createTestDatabase({ max: 3 });
  });
  afterAll(async () => {
    await database.drop();
  });

  const findUser = (email: string) =>
    database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

  it('is created once from ADMIN_EMAIL / ADMIN_PASSWORD and never overwritten', async () => {
    const { logger, lines } = memoryLogger('debug');
    const config = { ADMIN_EMAIL: ' Boss@Example.com ', ADMIN_PASSWORD: 'first-password-1' };
    expect(
      await ensureAdminFromEnv(database.db, config, logger, {
        hasher,
        openAccount: accountOpener(database.db),
      }),
    ).toBe('created');
    const created = await findUser('boss@example.com');
    expect(created).toMatchObject({ role: 'admin', name: 'Admin' });
    expect((await getUserBalances(database.db, created!.id)).demo).toBe(1_000_000);

    // A later start with another password changes nothing.
    const changed = { ...config, ADMIN_PASSWORD: 'second-password-2' };
    expect(
      await ensureAdminFromEnv(database.db, changed, logger, {
        hasher,
        openAccount: accountOpener(database.db),
      }),
    ).toBe('already_admin');
    const after = await findUser('boss@example.com');
    expect(after?.password_hash).toBe(created?.password_hash);
    expect(await hasher.verify('first-password-1', after!.password_hash)).toBe(true);
    expect(JSON.stringify(lines())).not.toContain('password-');
  });

  it('leaves an existing non-admin account alone, with a warning', async () => {
    const { logger, lines } = memoryLogger('debug');
    const first = { ADMIN_EMAIL: 'plain@example.com', ADMIN_PASSWORD: 'plain-password-1' };
    await ensureAdminFromEnv(database.db, first, logger, { hasher, openAccount: accountOpener(database.db) });
    await database.db
      .updateTable('users')
      .set({ role: 'user' })
      .where('email', '=', 'plain@example.com')
      .execute();
    const before = await findUser('plain@example.com');

    const result = await ensureAdminFromEnv(
      database.db,
      { ...first, ADMIN_PASSWORD: 'other-password' },
      logger,
      { hasher, openAccount: accountOpener(database.db) },
    );
    expect(result).toBe('exists_not_admin');
    expect(await findUser('plain@example.com')).toEqual(before);
    expect(lines().some((line) => line.level === 40 && String(line.msg).includes('left unchanged'))).toBe(
      true,
    );
  });

  it('does nothing when not configured', async () => {
    const { logger } = memoryLogger('silent');
    expect(
      await ensureAdminFromEnv(database.db, { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined }, logger, {
        openAccount: accountOpener(database.db),
      }),
    ).toBe('not_configured');
  });

  async function cli(args: string[], env: Record<string, string> = {}) {
    const { ADMIN_EMAIL: _email, ADMIN_PASSWORD: _password, ...inherited } = process.env;
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
        cwd: REPO_ROOT,
        env: { ...inherited, DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...env },
        timeout: 60_000,
      });
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? 1, stdout: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  }

  it('is created or promoted by the admin:create command', async () => {
    const created = await cli([
      '--email',
      'cli@example.com',
      '--password',
      'cli-password-1',
      '--name',
      'Ops',
    ]);
    expect(created).toEqual({ code: 0, stdout: 'Created admin account cli@example.com.\n' });
    expect(await findUser('cli@example.com')).toMatchObject({ role: 'admin', name: 'Ops' });

    const again = await cli(['--email', 'cli@example.com', '--password', 'cli-password-2']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('is already an admin');
    expect(again.stdout).toContain('--reset-password');
    const row = await findUser('cli@example.com');
    expect(await hasher.verify('cli-password-1', row!.password_hash)).toBe(true);

    await database.db
      .insertInto('users')
      .values({
        id: '00000000-0000-4000-8000-000000000001',
        email: 'someone@example.com',
        name: 'Someone',
        role: 'user',
        password_hash: row!.password_hash,
        google_sub: null,
        twofa_secret: null,
        twofa_pending_secret: null,
        twofa_last_step: null,
      })
      .execute();
    const promoted = await cli(['--email', 'SOMEONE@example.com', '--reset-password'], {
      ADMIN_EMAIL: 'unused@example.com',
      ADMIN_PASSWORD: 'from-env-password',
    });
    expect(promoted.stdout).toBe(
      'Promoted SOMEONE@example.com to admin.\nPassword changed; existing sessions were signed out.\n',
    );
    const someone = await findUser('someone@example.com');
    expect(someone?.role).toBe('admin');
    expect(await hasher.verify('from-env-password', someone!.password_hash)).toBe(true);
  });

  it('explains bad input from the admin:create command', async () => {
    const missing = await cli([]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain('--email is required');
    const weak = await cli(['--email', 'weak@example.com', '--password', 'short']);
    expect(weak).toEqual({ code: 1, stdout: 'Password must be at least 8 characters\n' });
  });
});
