import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

/** Reads and writes of `deposit_requests` and `withdrawal_requests`. */

type Db = Kysely<Database> | Transaction<Database>;
export type PaymentRequestRow = Selectable<Database['deposit_requests']>;
export type RequestTable = 'deposit_requests' | 'withdrawal_requests';
/** How callers outside the wallet name a request's kind; the tables stay the wallet's business. */
export type PaymentRequestKind = 'deposit' | 'withdrawal';

export function requestTable(kind: PaymentRequestKind): RequestTable {
  return kind === 'deposit' ? 'deposit_requests' : 'withdrawal_requests';
}

export async function insertPaymentRequest(
  trx: Transaction<Database>,
  table: RequestTable,
  row: {
    id: string;
    userId: string;
    amountCents: number;
    status: 'pending' | 'approved';
    providerRef?: string | null;
    idempotencyKey?: string | null;
    createdAt: Date;
  },
): Promise<PaymentRequestRow> {
  return trx
    .insertInto(table)
    .values({
      id: row.id,
      user_id: row.userId,
      amount_cents: row.amountCents,
      account_type: 'real',
      status: row.status,
      provider_ref: row.providerRef ?? null,
      idempotency_key: row.idempotencyKey ?? null,
      created_at: row.createdAt,
      decided_at: row.status === 'pending' ? null : row.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's earlier request made with this idempotency key, if any. */
export async function findRequestByIdempotencyKey(
  trx: Transaction<Database>,
  table: RequestTable,
  userId: string,
  idempotencyKey: string,
): Promise<PaymentRequestRow | undefined> {
  return trx
    .selectFrom(table)
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * Moves a pending request to its decided status, exactly once: of two admins deciding at the same
 * moment, the second waits on the row lock and then matches nothing (undefined).
 */
export async function decidePendingRequest(
  trx: Transaction<Database>,
  table: RequestTable,
  id: string,
  decision: { status: 'approved' | 'rejected'; adminId: string; at: Date; providerRef?: string },
): Promise<PaymentRequestRow | undefined> {
  return trx
    .updateTable(table)
    .set({
      status: decision.status,
      decided_at: decision.at,
      decided_by: decision.adminId,
      ...(decision.providerRef === undefined ? {} : { provider_ref: decision.providerRef }),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}

/** The request's row, locked for this transaction's decision (`for update`). */
export async function lockRequest(
  trx: Transaction<Database>,
  table: RequestTable,
  id: string,
): Promise<PaymentRequestRow | undefined> {
  return trx.selectFrom(table).selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function findRequest(
  db: Db,
  table: RequestTable,
  id: string,
): Promise<PaymentRequestRow | undefined> {
  return db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listRequests(
  db: Db,
  kind: PaymentRequestKind,
  options: { limit: number; status?: 'pending' | 'approved' | 'rejected' },
): Promise<PaymentRequestRow[]> {
  let query = db.selectFrom(requestTable(kind)).selectAll();
  if (options.status !== undefined) query = query.where('status', '=', options.status);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}
