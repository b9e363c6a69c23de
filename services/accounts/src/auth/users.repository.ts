import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { Role } from './auth.domain';
import { EmailTaken } from './auth.errors';

type Db = Kysely<Database> | Transaction<Database>;

export type UserRow = Selectable<Database['users']>;

/** PostgreSQL's SQLSTATE for a unique index refusing a row. */
export const PG_UNIQUE_VIOLATION = '23505';

export interface NewUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly passwordHash: string;
  readonly googleSub?: string;
  readonly createdAt: Date;
}

/**
 * Creates a user: the row that is an account to this package. A taken email (the unique index
 * decides, even under a race) is `EmailTaken`. What else an account starts with (its wallet) the
 * caller adds in the same transaction: see `OpenAccount`.
 */
export async function createUser(trx: Transaction<Database>, user: NewUser): Promise<UserRow> {
  try {
    return await trx
      .insertInto('users')
      .values({
        id: user.id,
        email: user.email,
        name: user.name,
        role: user.role,
        password_hash: user.passwordHash,
        google_sub: user.googleSub ?? null,
        twofa_secret: null,
        twofa_pending_secret: null,
        twofa_last_step: null,
        created_at: user.createdAt,
        updated_at: user.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    const pgError = error as { code?: string; constraint?: string };
    if (pgError.code === PG_UNIQUE_VIOLATION && pgError.constraint === 'users_email') throw new EmailTaken();
    throw error;
  }
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByGoogleSub(db: Db, sub: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('google_sub', '=', sub).executeTakeFirst();
}

/** The current role, for checks that must not trust a token minted before a demotion. */
export async function findUserRole(db: Db, id: string): Promise<Role | undefined> {
  const row = await db.selectFrom('users').select('role').where('id', '=', id).executeTakeFirst();
  return row?.role;
}

export async function setPasswordHash(db: Db, id: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function setRole(db: Db, id: string, role: Role, now: Date): Promise<void> {
  await db.updateTable('users').set({ role, updated_at: now }).where('id', '=', id).execute();
}

export async function setPendingTwoFactorSecret(
  db: Db,
  id: string,
  secret: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ twofa_pending_secret: secret, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Turns two-factor on with the pending secret and records the step of the confirming code. The
 * conditions make it a no-op (false) if another request enabled it or replaced the secret meanwhile.
 */
export async function enableTwoFactor(
  db: Db,
  id: string,
  secret: string,
  step: number,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({
      twofa_enabled: true,
      twofa_secret: secret,
      twofa_pending_secret: null,
      twofa_last_step: step,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('twofa_enabled', '=', false)
    .where('twofa_pending_secret', '=', secret)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function disableTwoFactor(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ twofa_enabled: false, twofa_secret: null, twofa_pending_secret: null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Records `step` as the last TOTP step used, only if it is later than the one stored: the same
 * rule as `isFreshTotpStep`, applied atomically so two requests racing with one code cannot both win.
 */
export async function claimTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ twofa_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('twofa_last_step', 'is', null), eb('twofa_last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface UserListRow {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  readonly twofa_enabled: boolean;
  readonly created_at: Date;
}

/** Newest first. */
/**
 * A page of users, newest first; with `firstIds`, those users first in the order given (the
 * admin's sort by toxicity: the order service's ranking), then the rest newest first.
 */
export function listUsers(
  db: Db,
  options: { limit: number; offset: number; firstIds?: readonly string[] },
): Promise<UserListRow[]> {
  let query = db.selectFrom('users').select(['id', 'name', 'email', 'role', 'twofa_enabled', 'created_at']);
  if (options.firstIds) {
    query = query.orderBy(sql`array_position(${[...options.firstIds]}::uuid[], id) nulls last`);
  }
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}

/** Locks a user's row so concurrent changes to one account (admin bootstrap, CLI) apply in turn. */
export function lockUserByEmail(trx: Transaction<Database>, email: string): Promise<UserRow | undefined> {
  return trx.selectFrom('users').selectAll().where('email', '=', email).forUpdate().executeTakeFirst();
}

/** The names and emails of the given users (unknown ids are absent): for admin lists that name traders. */
export async function usersByIds(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { name: string; email: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, { name: row.name, email: row.email }]));
}

/** The emails of the given users (unknown ids are absent): for admin lists that name traders. */
export async function emailsByIds(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}
