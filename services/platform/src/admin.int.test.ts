import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdminFromEnv, PasswordHasher } from '@updown/accounts';
import { accountOpener } from '@updown/gateway';
import { memoryLogger } from '@updown/gateway/testing';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances } from '@updown/wallet';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('./admin.cli.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the first admin', () => {
  let database: TestDatabase;
  const hasher = new PasswordHasher();

  beforeAll(async () => {
    database = await createTestDatabase({ max: 3 });
  });
  afterAll(async () => {
    await database.drop();
  });

  /** The start-up step, with the test's fast hasher and the roots' account opener. */
  const ensure = (
    config: Parameters<typeof ensureAdminFromEnv>[1],
    logger: Parameters<typeof ensureAdminFromEnv>[2],
  ) => ensureAdminFromEnv(database.db, config, logger, { hasher, openAccount: accountOpener(database.db) });

  const findUser = (email: string) =>
    database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

  it('is created once from ADMIN_EMAIL / ADMIN_PASSWORD and never overwritten', async () => {
    const { logger, lines } = memoryLogger('debug');
    const config = { ADMIN_EMAIL: ' Boss@Example.com ', ADMIN_PASSWORD: 'first-password-1' };
    expect(await ensure(config, logger)).toBe('created');
    const created = await findUser('boss@example.com');
    expect(created).toMatchObject({ role: 'admin', name: 'Admin' });
    expect((await getUserBalances(database.db, created!.id)).demo).toBe(1_000_000);

    // A later start with another password changes nothing.
    const changed = { ...config, ADMIN_PASSWORD: 'second-password-2' };
    expect(await ensure(changed, logger)).toBe('already_admin');
    const after = await findUser('boss@example.com');
    expect(after?.password_hash).toBe(created?.password_hash);
    expect(await hasher.verify('first-password-1', after!.password_hash)).toBe(true);
    expect(JSON.stringify(lines())).not.toContain('password-');
  });

  it('leaves an existing non-admin account alone, with a warning', async () => {
    const { logger, lines } = memoryLogger('debug');
    const first = { ADMIN_EMAIL: 'plain@example.com', ADMIN_PASSWORD: 'plain-password-1' };
    await ensure(first, logger);
    await database.db
      .updateTable('users')
      .set({ role: 'user' })
      .where('email', '=', 'plain@example.com')
      .execute();
    const before = await findUser('plain@example.com');

    const result = await ensure({ ...first, ADMIN_PASSWORD: 'other-password' }, logger);
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
