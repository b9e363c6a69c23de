import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

type Db = Kysely<Database> | Transaction<Database>;
export type FailureKind = 'password' | 'totp';

/**
 * Records an attempt before it is checked, as if it will fail. Concurrent attempts then see each
 * other (by id order) when deciding whether the account is locked, so a burst of parallel guesses
 * cannot all slip past the limit; the row is deleted again if the attempt succeeds or is refused.
 */
export async function recordAttempt(db: Db, subject: string, kind: FailureKind, at: Date): Promise<number> {
  const row = await db
    .insertInto('login_failures')
    .values({ subject, kind, occurred_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Times (epoch ms) of this subject's failures recorded before attempt `beforeId`, newest `limit`. */
export async function failureTimesBefore(
  db: Db,
  query: { subject: string; kind: FailureKind; since: Date; beforeId: number; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('login_failures')
    .select('occurred_at')
    .where('subject', '=', query.subject)
    .where('kind', '=', query.kind)
    .where('occurred_at', '>=', query.since)
    .where('id', '<', query.beforeId)
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
  return rows.map((row) => row.occurred_at.getTime());
}

export async function forgetAttempt(db: Db, id: number): Promise<void> {
  await db.deleteFrom('login_failures').where('id', '=', id).execute();
}

/** A success wipes the slate for that account and kind. */
export async function clearFailures(db: Db, subject: string, kind: FailureKind): Promise<void> {
  await db.deleteFrom('login_failures').where('subject', '=', subject).where('kind', '=', kind).execute();
}

/** Deletes up to `limit` rows older than `before`: bounded housekeeping done as attempts arrive. */
export async function pruneFailures(db: Db, before: Date, limit: number): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where('id', 'in', (eb) =>
      eb.selectFrom('login_failures').select('id').where('occurred_at', '<', before).limit(limit),
    )
    .execute();
}
