import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { TradeDisputesTable } from '../db/tables';
import type { DisputeReplay, DisputeStatus } from './dispute.domain';

type Db = Kysely<Database> | Transaction<Database>;

export type DisputeRow = Selectable<TradeDisputesTable> & { readonly replay: DisputeReplay };

/** Most disputes one list returns. */
export const DISPUTES_LIST_MAX = 200;

export async function insertDispute(
  db: Db,
  dispute: {
    readonly id: string;
    readonly tradeId: string;
    readonly userId: string;
    readonly reason: string;
    readonly replay: DisputeReplay;
    readonly createdAtMs: number;
  },
): Promise<DisputeRow | undefined> {
  // The partial unique index (one open dispute per trade) turns a concurrent second dispute into no row.
  const row = await db
    .insertInto('trade_disputes')
    .values({
      id: dispute.id,
      trade_id: dispute.tradeId,
      user_id: dispute.userId,
      reason: dispute.reason,
      status: 'open',
      replay: JSON.stringify(dispute.replay),
      created_at_ms: dispute.createdAtMs,
    })
    .onConflict((oc) => oc.columns(['trade_id']).where('status', '=', 'open').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row as DisputeRow | undefined;
}

export async function findDispute(db: Db, id: string): Promise<DisputeRow | undefined> {
  return (await db.selectFrom('trade_disputes').selectAll().where('id', '=', id).executeTakeFirst()) as
    DisputeRow | undefined;
}

/** Claims an open dispute for its resolution (`for update`): a second admin waits, then finds it resolved. */
export async function lockDispute(trx: Transaction<Database>, id: string): Promise<DisputeRow | undefined> {
  return (await trx
    .selectFrom('trade_disputes')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()) as DisputeRow | undefined;
}

export async function markResolved(
  trx: Transaction<Database>,
  id: string,
  resolution: {
    readonly status: Exclude<DisputeStatus, 'open'>;
    readonly note: string;
    readonly adminId: string;
    readonly correctionCents: number | null;
    readonly ledgerEntryId: number | null;
    readonly resolvedAtMs: number;
  },
): Promise<DisputeRow> {
  return (await trx
    .updateTable('trade_disputes')
    .set({
      status: resolution.status,
      resolution_note: resolution.note,
      resolved_by: resolution.adminId,
      correction_cents: resolution.correctionCents,
      ledger_entry_id: resolution.ledgerEntryId,
      resolved_at_ms: resolution.resolvedAtMs,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()) as DisputeRow;
}

export async function listUserDisputes(db: Db, userId: string, limit: number): Promise<DisputeRow[]> {
  return (await db
    .selectFrom('trade_disputes')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at_ms', 'desc')
    .limit(limit)
    .execute()) as DisputeRow[];
}

export async function listDisputes(
  db: Db,
  status: DisputeStatus | undefined,
  limit: number,
): Promise<DisputeRow[]> {
  let query = db.selectFrom('trade_disputes').selectAll();
  if (status) query = query.where('status', '=', status);
  return (await query.orderBy('created_at_ms', 'desc').limit(limit).execute()) as DisputeRow[];
}

/** Whether the trade has an open dispute. */
export async function hasOpenDispute(db: Db, tradeId: string): Promise<boolean> {
  const row = await db
    .selectFrom('trade_disputes')
    .select('id')
    .where('trade_id', '=', tradeId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return row !== undefined;
}
