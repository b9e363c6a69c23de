import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { SecurityEventKind } from './security.domain';

type Db = Kysely<Database> | Transaction<Database>;

/** Where a request came from, as stored: the socket's (or trusted proxy's) address and the user agent. */
export interface ClientSeen {
  readonly address: string | null;
  readonly userAgent: string | null;
}

/** A new session; its sign-in proved the password, so it starts stepped up for that client. */
export async function insertSession(
  db: Db,
  session: { id: string; userId: string; at: Date; client: ClientSeen; binding: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      created_at: session.at,
      last_seen_at: session.at,
      address: session.client.address,
      user_agent: session.client.userAgent,
      step_up_at: session.at,
      step_up_binding: session.binding,
    })
    .execute();
}

/** A refresh renews the session: it was seen now, from this client. */
export async function touchSession(db: Db, id: string, at: Date, client: ClientSeen): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: at, address: client.address, user_agent: client.userAgent })
    .where('id', '=', id)
    .execute();
}

/**
 * Records a step-up on the session, for the client that made it. A session that predates the
 * sessions table has no row yet: one is made, so the claim still lands on the session the caller holds.
 */
export async function recordStepUp(
  db: Db,
  step: { sessionId: string; userId: string; at: Date; binding: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: step.sessionId,
      user_id: step.userId,
      created_at: step.at,
      last_seen_at: step.at,
      step_up_at: step.at,
      step_up_binding: step.binding,
    })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({ step_up_at: step.at, step_up_binding: step.binding })
        .where('sessions.user_id', '=', step.userId),
    )
    .execute();
}

/** The session's last step-up and the client that made it, if any. */
export async function sessionStepUp(
  db: Db,
  sessionId: string,
  userId: string,
): Promise<{ at: Date; binding: string | null } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select(['step_up_at', 'step_up_binding'])
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.step_up_at ? { at: row.step_up_at, binding: row.step_up_binding } : undefined;
}

export interface ActiveSessionRow {
  readonly id: string;
  readonly created_at: Date;
  readonly last_seen_at: Date;
  readonly address: string | null;
  readonly user_agent: string | null;
}

/**
 * The user's sessions that can still be renewed: a live token (neither exchanged, revoked nor
 * expired) in the family. Most recently seen first, at most `limit`.
 */
export function listActiveSessions(
  db: Db,
  userId: string,
  now: Date,
  limit: number,
): Promise<ActiveSessionRow[]> {
  return db
    .selectFrom('sessions as s')
    .select(['s.id', 's.created_at', 's.last_seen_at', 's.address', 's.user_agent'])
    .where('s.user_id', '=', userId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('refresh_tokens as t')
          .select('t.id')
          .whereRef('t.family_id', '=', 's.id')
          .where('t.rotated_at', 'is', null)
          .where('t.revoked_at', 'is', null)
          .where('t.expires_at', '>', now),
      ),
    )
    .orderBy('s.last_seen_at', 'desc')
    .orderBy('s.id')
    .limit(limit)
    .execute();
}

/** Deletes up to `limit` sessions last renewed before `before` (none of their tokens can be live). */
export async function pruneSessions(db: Db, before: Date, limit: number): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('id', 'in', (eb) =>
      eb.selectFrom('sessions').select('id').where('last_seen_at', '<', before).limit(limit),
    )
    .execute();
}

export interface NewSecurityEvent {
  readonly userId: string;
  readonly kind: SecurityEventKind;
  readonly at: Date;
  readonly sessionId: string | null;
  readonly client: ClientSeen;
}

export async function insertSecurityEvent(db: Db, event: NewSecurityEvent): Promise<void> {
  await db
    .insertInto('security_events')
    .values({
      user_id: event.userId,
      kind: event.kind,
      occurred_at: event.at,
      session_id: event.sessionId,
      address: event.client.address,
      user_agent: event.client.userAgent,
    })
    .execute();
}

export interface SecurityEventRow {
  readonly id: number;
  readonly kind: SecurityEventKind;
  readonly occurred_at: Date;
  readonly session_id: string | null;
  readonly address: string | null;
  readonly user_agent: string | null;
}

/** The user's events newest first, from below the id `before` when given: keyset pages. */
export function listSecurityEvents(
  db: Db,
  userId: string,
  page: { before: number | undefined; limit: number },
): Promise<SecurityEventRow[]> {
  let query = db
    .selectFrom('security_events')
    .select(['id', 'kind', 'occurred_at', 'session_id', 'address', 'user_agent'])
    .where('user_id', '=', userId);
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}
