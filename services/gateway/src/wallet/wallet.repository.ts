import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

/** Reads and writes of the wallet's own tables: bonuses, deposit and withdrawal requests, settings. */

type Db = Kysely<Database> | Transaction<Database>;
export type BonusRow = Selectable<Database['bonuses']>;
export type PaymentRequestRow = Selectable<Database['deposit_requests']>;
export type RequestTable = 'deposit_requests' | 'withdrawal_requests';

/**
 * Serialises one user's wallet commands (deposit, withdrawal, bonus cancel, approvals): the bonus
 * rules read "has a bonus ever been credited" and must not see two deposits both answer no.
 *
 * `for no key update`, not `for update`: the commands only need to exclude each other. A full
 * `for update` also blocks every foreign-key check on the user (`for key share`), such as the one
 * a settlement batch or a placement makes when it writes a trade row of the same user while holding
 * that user's ledger accounts; a wallet command holding this lock and waiting for those accounts
 * then deadlocked with it, and PostgreSQL aborted one of the two (a 500 for the trader).
 */
export async function lockUser(trx: Transaction<Database>, userId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The bonus the wallet shows: the active one, else the most recently credited; and whether any exists. */
export async function latestBonus(db: Db, userId: string): Promise<BonusRow | undefined> {
  return db
    .selectFrom('bonuses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy((eb) => eb.case().when('status', '=', 'active').then(0).else(1).end())
    .orderBy('credited_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertBonus(
  trx: Transaction<Database>,
  row: {
    id: string;
    userId: string;
    amountCents: number;
    turnoverRequiredCents: number;
    creditedAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await trx
    .insertInto('bonuses')
    .values({
      id: row.id,
      user_id: row.userId,
      amount_cents: row.amountCents,
      turnover_required_cents: row.turnoverRequiredCents,
      credited_at: row.creditedAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/**
 * Locks the user's active bonus row, if there is one, so that a command which moves cash before it
 * forfeits the bonus (a withdrawal) still takes the bonus row before any ledger account: the order
 * a bonus cancel and settlement use, so none of them waits for another in a cycle.
 */
export async function lockActiveBonus(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx
    .selectFrom('bonuses')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .forNoKeyUpdate()
    .execute();
}

/** Closes the user's active bonus (optionally only if it is `bonusId`); undefined when none was active. */
export async function closeActiveBonus(
  trx: Transaction<Database>,
  userId: string,
  status: 'forfeited' | 'expired',
  now: Date,
  bonusId?: string,
): Promise<{ id: string } | undefined> {
  let query = trx
    .updateTable('bonuses')
    .set({ status, closed_at: now })
    .where('user_id', '=', userId)
    .where('status', '=', 'active');
  if (bonusId !== undefined) query = query.where('id', '=', bonusId);
  return query.returning('id').executeTakeFirst();
}

/** Locks ledger accounts by code in id order (the order `transfer` locks in) and returns their balances. */
export async function lockAccountBalances(
  trx: Transaction<Database>,
  codes: readonly string[],
): Promise<Map<string, number>> {
  const rows = await trx
    .selectFrom('ledger_accounts')
    .select(['code', 'balance'])
    .where('code', 'in', [...codes])
    .orderBy('id')
    .forUpdate()
    .execute();
  return new Map(rows.map((row) => [row.code, row.balance]));
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

export async function findRequest(
  db: Db,
  table: RequestTable,
  id: string,
): Promise<PaymentRequestRow | undefined> {
  return db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listRequests(
  db: Db,
  table: RequestTable,
  options: { limit: number; status?: 'pending' | 'approved' | 'rejected' },
): Promise<PaymentRequestRow[]> {
  let query = db.selectFrom(table).selectAll();
  if (options.status !== undefined) query = query.where('status', '=', options.status);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

export async function readSettings(db: Db) {
  return db
    .selectFrom('platform_settings')
    .select(['payout_pct', 'require_deposit_approval', 'max_stake_cents'])
    .executeTakeFirstOrThrow();
}
