import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

type Db = Kysely<Database> | Transaction<Database>;

export type RefreshTokenRow = Selectable<Database['refresh_tokens']>;
export type RevokeReason = 'logout' | 'reuse' | 'password_reset';

export interface NewRefreshToken {
  readonly id: string;
  readonly userId: string;
  readonly familyId: string;
  readonly parentId: string | null;
  readonly tokenHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export async function insertRefreshToken(db: Db, token: NewRefreshToken): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      id: token.id,
      user_id: token.userId,
      family_id: token.familyId,
      parent_id: token.parentId,
      token_hash: token.tokenHash,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      revoked_reason: null,
    })
    .execute();
}

/** Locks the row: two refreshes with one token are serialised, and the second sees it rotated. */
export function lockRefreshToken(
  trx: Transaction<Database>,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  return trx
    .selectFrom('refresh_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .forUpdate()
    .executeTakeFirst();
}

export async function markRotated(trx: Transaction<Database>, id: string, now: Date): Promise<void> {
  await trx.updateTable('refresh_tokens').set({ rotated_at: now }).where('id', '=', id).execute();
}

/** Revokes every live token of a family; returns how many were still live. */
export async function revokeFamily(
  db: Db,
  familyId: string,
  reason: RevokeReason,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Revokes every live session of a user, e.g. after an operator resets the password. */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  reason: RevokeReason,
  now: Date,
): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function findFamilyOfToken(db: Db, tokenHash: string): Promise<{ family_id: string } | undefined> {
  return db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Deletes up to `limit` tokens that expired before `before`. Called as sessions start, so the
 * table stays bounded without a scheduler and no single call does unbounded work. Rotated tokens
 * are kept until then because reuse detection needs them.
 */
export async function pruneExpiredRefreshTokens(db: Db, before: Date, limit: number): Promise<void> {
  await db
    .deleteFrom('refresh_tokens')
    .where('id', 'in', (eb) =>
      eb.selectFrom('refresh_tokens').select('id').where('expires_at', '<', before).limit(limit),
    )
    .execute();
}
