import { sql, type Transaction } from 'kysely';
import type { BusMessage } from '../bus/bus';
import type { Database } from '../db/schema';

/**
 * A table that is its own outbox: a row carries the publish position of its event, written by
 * the transaction that makes the row worth announcing, so no second row goes beside it. The
 * position is that transaction's id (`pg_current_xact_id()`, an `xid8`) and a number from the
 * table's own sequence. The relay publishes the rows after its cursor for the source
 * (`outbox_cursors`) and moves the cursor, in one transaction.
 *
 * Sequence numbers alone cannot be a cursor: two transactions draw them in one order and may
 * commit in the other, and a cursor past the later commit would skip the earlier one for good.
 * So a source only returns rows written by transactions older than every transaction still
 * running (`xact_id < pg_snapshot_xmin(pg_current_snapshot())`, see `committedAfter`), in
 * (`xact_id`, `seq`) order: every transaction that may still commit has a larger id than any row
 * returned, so its rows land after the cursor. The price: a transaction left open anywhere on the
 * server holds every source's publication back until it ends, and a row held back by a
 * transaction whose commit wakes no relay waits for the relay's next poll (`RELAY_WAKE`, 1 s).
 */
export interface OutboxSourcePosition {
  /** The writing transaction's id (`xid8`) as a decimal string. */
  readonly xactId: string;
  /** The row's number in the source's sequence, as a decimal string. */
  readonly seq: string;
}

export interface OutboxSourceRow {
  readonly position: OutboxSourcePosition;
  readonly message: BusMessage;
}

export interface OutboxSource {
  /** The cursor's name in `outbox_cursors`: stable across releases. */
  readonly name: string;
  /**
   * At most `limit` rows after `after` (from the first when null), in position order, each
   * written by a transaction that `committedAfter` admits.
   */
  read(
    trx: Transaction<Database>,
    after: OutboxSourcePosition | null,
    limit: number,
  ): Promise<readonly OutboxSourceRow[]>;
  /**
   * How many rows `read` would return after `after` with no limit, counted up to `cap`: the
   * source's share of the relay's backlog gauge. The same `committedAfter` condition as `read`.
   */
  pending(trx: Transaction<Database>, after: OutboxSourcePosition | null, cap: number): Promise<number>;
}

/**
 * The condition a source's query puts on its rows, given its transaction-id and sequence columns:
 * written by a transaction that ended before the statement's snapshot (so it committed, since the
 * row is visible), and after the cursor. Order the rows by the same two columns.
 */
export function committedAfter(
  columns: { readonly xactId: string; readonly seq: string },
  after: OutboxSourcePosition | null,
) {
  const xact = sql.ref(columns.xactId);
  const seq = sql.ref(columns.seq);
  const committed = sql`${xact} < pg_snapshot_xmin(pg_current_snapshot())`;
  if (after === null) return committed;
  return sql`${committed} and (${xact}, ${seq}) > (${after.xactId}::xid8, ${after.seq}::bigint)`;
}

export async function readCursor(
  trx: Transaction<Database>,
  source: string,
): Promise<OutboxSourcePosition | null> {
  const row = await trx
    .selectFrom('outbox_cursors')
    .select([sql<string>`xact_id::text`.as('xact_id'), sql<string>`seq::text`.as('seq')])
    .where('source', '=', source)
    .executeTakeFirst();
  return row ? { xactId: row.xact_id, seq: row.seq } : null;
}

/**
 * Moves the source's cursor inside the relay's pass. The pass's commit need not wait for its WAL
 * flush: a cursor lost in a crash only means the rows after the older cursor are published once
 * more, which at-least-once delivery allows.
 */
export async function moveCursor(
  trx: Transaction<Database>,
  source: string,
  position: OutboxSourcePosition,
): Promise<void> {
  await sql`set local synchronous_commit = off`.execute(trx);
  await sql`
    insert into outbox_cursors (source, xact_id, seq, updated_at)
    values (${source}, ${position.xactId}::xid8, ${position.seq}::bigint, now())
    on conflict (source) do update set xact_id = excluded.xact_id, seq = excluded.seq, updated_at = now()`.execute(
    trx,
  );
}
