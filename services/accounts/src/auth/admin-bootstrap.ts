import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { systemClock, type Clock, type Database, type Logger } from '@updown/runtime';
import { checkAccountDetails } from './accounts.handler';
import { checkPassword, decideAdminBootstrap, normaliseEmail, normaliseName, type Role } from './auth.domain';
import { EmailTaken, InvalidAccountDetails } from './auth.errors';
import { PasswordHasher } from './password';
import { revokeUserSessions } from './sessions.repository';
import { findUserByEmail, setPasswordHash, setRole } from './users.repository';
import type { OpenAccount } from './accounts.context';

export const ADMIN_DEFAULT_NAME = 'Admin';

export type EnsureAdminResult = 'not_configured' | 'created' | 'already_admin' | 'exists_not_admin';

export interface AdminTools {
  /** Opens the admin's account as sign-up opens any (accounts' `createUser`, then the wallet). */
  readonly openAccount: OpenAccount;
  readonly clock?: Clock;
  readonly hasher?: PasswordHasher;
}

async function createAdmin(
  details: { email: string; name: string; password: string },
  tools: AdminTools,
): Promise<void> {
  const checked = checkAccountDetails(details);
  const hasher = tools.hasher ?? new PasswordHasher();
  await tools.openAccount({
    id: randomUUID(),
    email: checked.email,
    name: checked.name,
    role: 'admin' satisfies Role,
    passwordHash: await hasher.hash(details.password),
    createdAt: new Date((tools.clock ?? systemClock).nowMs()),
  });
}

/**
 * Creates the first admin from `ADMIN_EMAIL` / `ADMIN_PASSWORD` when no account has that email.
 * Runs at every start and is safe to: an existing account is never changed from here (see
 * `decideAdminBootstrap`). Several processes starting together are fine: one insert wins.
 */
export async function ensureAdminFromEnv(
  db: Kysely<Database>,
  config: { readonly ADMIN_EMAIL: string | undefined; readonly ADMIN_PASSWORD: string | undefined },
  logger: Logger,
  tools: AdminTools,
): Promise<EnsureAdminResult> {
  if (config.ADMIN_EMAIL === undefined || config.ADMIN_PASSWORD === undefined) return 'not_configured';
  const email = normaliseEmail(config.ADMIN_EMAIL);
  const existing = await findUserByEmail(db, email);
  const decision = decideAdminBootstrap(existing);
  if (decision === 'already_admin') {
    logger.debug({ email }, 'admin from ADMIN_EMAIL already exists');
    return decision;
  }
  if (decision === 'exists_not_admin') {
    logger.warn(
      { email },
      'ADMIN_EMAIL belongs to an existing non-admin account; it was left unchanged. Promote it with npm run admin:create',
    );
    return decision;
  }
  try {
    await createAdmin({ email, name: ADMIN_DEFAULT_NAME, password: config.ADMIN_PASSWORD }, tools);
  } catch (error) {
    if (!(error instanceof EmailTaken)) throw error;
    return ensureAdminFromEnv(db, config, logger, tools);
  }
  logger.info({ email }, 'created the admin account from ADMIN_EMAIL');
  return 'created';
}

export interface AdminCommand {
  readonly email: string;
  readonly password: string | undefined;
  readonly name: string | undefined;
  /** Set the password of an existing account too (and sign it out everywhere). */
  readonly resetPassword: boolean;
}

export type AdminCommandResult = 'created' | 'promoted' | 'already_admin';

/**
 * The operator's explicit command (`npm run admin:create`): creates the account as an admin, or
 * promotes an existing one. An existing account's password changes only with `resetPassword`.
 */
export async function createOrPromoteAdmin(
  db: Kysely<Database>,
  command: AdminCommand,
  tools: AdminTools,
): Promise<{ result: AdminCommandResult; passwordReset: boolean }> {
  const clock = tools.clock ?? systemClock;
  const hasher = tools.hasher ?? new PasswordHasher();
  const email = normaliseEmail(command.email);
  const existing = await findUserByEmail(db, email);
  if (!existing) {
    if (command.password === undefined)
      throw new InvalidAccountDetails('A password is required to create an account');
    const name = normaliseName(command.name ?? ADMIN_DEFAULT_NAME);
    await createAdmin({ email, name, password: command.password }, { ...tools, clock, hasher });
    return { result: 'created', passwordReset: false };
  }
  const now = new Date(clock.nowMs());
  const result = existing.role === 'admin' ? 'already_admin' : 'promoted';
  if (result === 'promoted') await setRole(db, existing.id, 'admin', now);
  if (!command.resetPassword) return { result, passwordReset: false };
  if (command.password === undefined) throw new InvalidAccountDetails('--reset-password needs a password');
  const policy = checkPassword(command.password);
  if (!policy.ok) throw new InvalidAccountDetails(policy.message);
  await setPasswordHash(db, existing.id, await hasher.hash(command.password), now);
  await revokeUserSessions(db, existing.id, 'password_reset', now);
  return { result, passwordReset: true };
}
