import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import '../db/tables';

/** Reads and writes of `payment_intents`. */

type Db = Kysely<Database> | Transaction<Database>;
export type PaymentIntentRow = Selectable<Database['payment_intents']>;

export async function insertIntent(
  trx: Transaction<Database>,
  row: {
    id: string;
    requestId: string;
    userId: string;
    amountCents: number;
    kind: 'deposit' | 'deposit_approval';
    idempotencyKey?: string;
    decidedBy?: string;
    createdAt: Date;
  },
): Promise<PaymentIntentRow> {
  return trx
    .insertInto('payment_intents')
    .values({
      id: row.id,
      request_id: row.requestId,
      user_id: row.userId,
      amount_cents: row.amountCents,
      kind: row.kind,
      idempotency_key: row.idempotencyKey ?? null,
      decided_by: row.decidedBy ?? null,
      created_at: row.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's intent still waiting for its result under this idempotency key, if any. */
export async function findPendingIntentByKey(
  db: Db,
  userId: string,
  idempotencyKey: string,
): Promise<PaymentIntentRow | undefined> {
  return db
    .selectFrom('payment_intents')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', idempotencyKey)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

/** The intent still waiting for its result that pays this request, if any. */
export async function findPendingIntentForRequest(
  db: Db,
  requestId: string,
): Promise<PaymentIntentRow | undefined> {
  return db
    .selectFrom('payment_intents')
    .selectAll()
    .where('request_id', '=', requestId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

export async function findIntent(db: Db, id: string): Promise<PaymentIntentRow | undefined> {
  return db.selectFrom('payment_intents').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Records the provider's answer on a pending intent, exactly once: a second recording (a retry, or
 * recovery racing the original) matches nothing and returns undefined.
 */
export async function settlePendingIntent(
  trx: Transaction<Database>,
  id: string,
  result: { status: 'succeeded' | 'failed'; providerRef: string | null; at: Date },
): Promise<PaymentIntentRow | undefined> {
  return trx
    .updateTable('payment_intents')
    .set({ status: result.status, provider_ref: result.providerRef, decided_at: result.at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** Intents still pending that were recorded before `before`, oldest first. */
export async function stalePendingIntents(db: Db, before: Date, limit: number): Promise<PaymentIntentRow[]> {
  return db
    .selectFrom('payment_intents')
    .selectAll()
    .where('status', '=', 'pending')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}
