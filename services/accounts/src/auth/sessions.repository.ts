import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

type Db = Kysely<Database> | Transaction<Database>;

export type RefreshTokenRow = Selectable<Database['refresh_tokens']>;
export type RevokeReason = 'logout' | 'reuse' | 'password_reset' | 'logout_all' | 'password_change';

export interface NewRefreshToken {
  readonly id: string;
  readonly userId: string;
  readonly familyId: string;
  readonly parentId: string | null;
  readonly tokenHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** `bindingOf` the client the token is issued to; null where no client is known. */
  readonly clientBinding: string | null;
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
      client_binding: token.clientBinding,
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

/**
 * The token that replaced `parent`, locked, if it is still unexchanged and unrevoked (at most one
 * is: a reissue retires the previous one). Locking it serialises a reissue with a refresh by the
 * successor's own holder; whichever waits re-reads the row and sees it spent.
 */
export function lockUnusedSuccessor(
  trx: Transaction<Database>,
  parent: Pick<RefreshTokenRow, 'id' | 'family_id'>,
): Promise<Pick<RefreshTokenRow, 'id' | 'client_binding'> | undefined> {
  return trx
    .selectFrom('refresh_tokens')
    .select(['id', 'client_binding'])
    .where('family_id', '=', parent.family_id)
    .where('parent_id', '=', parent.id)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export async function markRotated(trx: Transaction<Database>, id: string, now: Date): Promise<void> {
  await trx.updateTable('refresh_tokens').set({ rotated_at: now }).where('id', '=', id).execute();
}

/** Revokes every live token of a family (of `userId`'s, when given); returns how many were still live. */
export async function revokeFamily(
  db: Db,
  familyId: string,
  reason: RevokeReason,
  now: Date,
  userId?: string,
): Promise<number> {
  let update = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null);
  if (userId !== undefined) update = update.where('user_id', '=', userId);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Revokes every live session of a user (after an operator resets the password, on "log out
 * everywhere"), or every one but `exceptSessionId` (the session that changed the password). Returns
 * the ids of the sessions it ended.
 */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  reason: RevokeReason,
  now: Date,
  exceptSessionId?: string,
): Promise<string[]> {
  let update = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId !== undefined) update = update.where('family_id', '!=', exceptSessionId);
  const rows = await update.returning('family_id').execute();
  return [...new Set(rows.map((row) => row.family_id))];
}

/**
 * Sessions with a token revoked at or after `since`, and when: what a gateway must stop accepting
 * access tokens of. Served by the partial index on `revoked_at`.
 */
export async function endedSessionsSince(
  db: Db,
  since: Date,
): Promise<Array<{ sessionId: string; endedAt: Date }>> {
  const rows = await db
    .selectFrom('refresh_tokens')
    .select(({ fn }) => ['family_id', fn.max('revoked_at').as('ended_at')])
    .where('revoked_at', '>=', since)
    .groupBy('family_id')
    .execute();
  return rows.map((row) => ({ sessionId: row.family_id, endedAt: new Date(row.ended_at as Date) }));
}

/** Whether any token of the session was revoked: the check when the in-memory copy is stale. */
export async function isSessionEnded(db: Db, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', sessionId)
    .where('revoked_at', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function findFamilyOfToken(
  db: Db,
  tokenHash: string,
): Promise<{ family_id: string; user_id: string } | undefined> {
  return db
    .selectFrom('refresh_tokens')
    .select(['family_id', 'user_id'])
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
