import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { TradeDisputesTable } from '../db/tables';
import type { DisputeReplay, DisputeStatus } from './dispute.domain';
import type { DisputeFilter, DisputePosition } from './dispute-page.domain';
import type { DisputeUsage } from './dispute-quota.domain';

type Db = Kysely<Database> | Transaction<Database>;

export type DisputeRow = Selectable<TradeDisputesTable> & { readonly replay: DisputeReplay };

/** Most disputes a trader's own list returns (the filing caps keep it far below this in a day). */
export const DISPUTES_LIST_MAX = 200;

export async function insertDispute(
  db: Db,
  dispute: {
    readonly id: string;
    readonly tradeId: string;
    readonly userId: string;
    readonly pair: string;
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
      pair: dispute.pair,
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

/**
 * One page of every trader's disputes matching `filter`, newest first by (created_at_ms, id),
 * starting strictly after `after`: up to `limit + 1` rows, the extra one telling the caller that
 * more follow (`pageOf`). Each filter has an index in the same order (migration 0051).
 */
export async function listDisputePage(
  db: Db,
  filter: DisputeFilter,
  after: DisputePosition | undefined,
  limit: number,
): Promise<DisputeRow[]> {
  let query = db.selectFrom('trade_disputes').selectAll();
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.pair !== undefined) query = query.where('pair', '=', filter.pair);
  if (filter.fromMs !== undefined) query = query.where('created_at_ms', '>=', filter.fromMs);
  if (filter.toMs !== undefined) query = query.where('created_at_ms', '<', filter.toMs);
  if (after !== undefined)
    query = query.where(sql<boolean>`(created_at_ms, id) < (${after.createdAtMs}, ${after.id}::uuid)`);
  return (await query
    .orderBy('created_at_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()) as DisputeRow[];
}

/**
 * Serialises one trader's filings until the transaction ends, so that counting their disputes
 * and inserting the new one cannot interleave with another filing of theirs. An advisory lock
 * rather than a row lock: the trader may have no dispute row yet, and filing moves no money, so
 * it stays off the wallet's lock ladder and waits on nothing a money command holds.
 */
export async function lockDisputeFiler(trx: Transaction<Database>, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`dispute-filer:${userId}`}, 0))`.execute(trx);
}

/** The trader's open disputes and the times of their newest `recentMax` filings since `sinceMs`. */
export async function disputeUsage(
  db: Db,
  userId: string,
  sinceMs: number,
  recentMax: number,
): Promise<DisputeUsage> {
  const open = await db
    .selectFrom('trade_disputes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  const recent = await db
    .selectFrom('trade_disputes')
    .select('created_at_ms')
    .where('user_id', '=', userId)
    .where('created_at_ms', '>', sinceMs)
    .orderBy('created_at_ms', 'desc')
    .limit(recentMax)
    .execute();
  return { openCount: open.n, recentFiledAtMs: recent.map((row) => row.created_at_ms) };
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
