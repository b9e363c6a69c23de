import { sql, type Kysely, type Transaction } from 'kysely';
import { executePrepared } from '../db/prepared';
import type { Database } from '../db/schema';

/** Queries on the `outbox` table. Functions that lock rows take a `Transaction`, never a bare `db`. */

export interface OutboxRow {
  readonly id: number;
  readonly topic: string;
  readonly key: string;
  readonly event: unknown;
}

/** Arbitrary but fixed: the advisory lock that makes one relay per database the active one. */
export const OUTBOX_RELAY_LOCK_ID = 0x75_70_64_6f_77_6e; // "updown"

export async function insertOutboxRow(
  trx: Transaction<Database>,
  row: { topic: string; key: string; event: unknown },
): Promise<number> {
  // Prepared: one outbox row goes with every placement, and parsing and planning the insert anew
  // each time cost more than the insert.
  const { rows } = await executePrepared(
    trx,
    trx
      .insertInto('outbox')
      .values({ topic: row.topic, key: row.key, event: JSON.stringify(row.event) })
      .returning('id'),
  );
  if (!rows[0]) throw new Error('insert into outbox returned no row');
  return rows[0].id;
}

/** Inserts many rows with one statement; ids follow the order of `rows`. */
export async function insertOutboxRows(
  trx: Transaction<Database>,
  rows: readonly { topic: string; key: string; event: unknown }[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const result = await sql<{ id: number }>`
    insert into outbox (topic, key, event)
    select r.topic, r.key, r.event::jsonb
    from unnest(
      ${rows.map((r) => r.topic)}::text[],
      ${rows.map((r) => r.key)}::text[],
      ${rows.map((r) => JSON.stringify(r.event))}::text[]
    ) with ordinality as r (topic, key, event, ord)
    order by r.ord
    returning id`.execute(trx);
  return result.rows.map((r) => r.id).sort((a, b) => a - b);
}

/**
 * Takes the relay lock for the rest of the transaction. Transaction-level, so it is released by
 * commit or rollback and cannot leak on a pooled connection; `try`, so a second relay skips its
 * turn instead of queueing behind the first.
 */
export async function tryTakeRelayLock(trx: Transaction<Database>): Promise<boolean> {
  const result = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(${OUTBOX_RELAY_LOCK_ID}::bigint) as locked`.execute(trx);
  return result.rows[0]?.locked === true;
}

export async function claimUnpublished(trx: Transaction<Database>, limit: number): Promise<OutboxRow[]> {
  return trx
    .selectFrom('outbox')
    .select(['id', 'topic', 'key', 'event'])
    .where('published_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function markPublished(
  trx: Transaction<Database>,
  ids: readonly number[],
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  // The mark need not wait for its WAL flush: lost in a crash, the rows are published again, which
  // at-least-once delivery and idempotent consumers already allow. A disk flush fewer per pass.
  await sql`set local synchronous_commit = off`.execute(trx);
  await trx
    .updateTable('outbox')
    .set({ published_at: at })
    .where('id', 'in', [...ids])
    .execute();
}

/** Deletes at most `limit` rows published before `before`, oldest first; returns how many. */
export async function deletePublishedBefore(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('outbox')
    .where(
      'id',
      'in',
      db
        .selectFrom('outbox')
        .select('id')
        .where('published_at', 'is not', null)
        .where('published_at', '<', before)
        .orderBy('published_at')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Unpublished rows, counted up to `cap` so the query stays cheap however large the backlog grows. */
export async function countUnpublished(db: Kysely<Database>, cap: number): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from outbox where published_at is null limit ${cap}) backlog`.execute(
    db,
  );
  return result.rows[0]?.n ?? 0;
}
