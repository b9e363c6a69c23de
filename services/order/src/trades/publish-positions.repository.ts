import { sql, type Transaction } from 'kysely';
import { committedAfter, type Database, type OutboxSourcePosition } from '@updown/runtime';

/** The publish-position columns of one of the events the trades table is the outbox of. */
export interface PositionColumns {
  readonly xactId: 'opened_xact_id' | 'settled_xact_id';
  readonly seq: 'opened_seq' | 'settled_seq';
}

/**
 * How many trades wait to be published after `after` by these columns, counted up to `cap`: the
 * rows a source's read would return with no limit (the same `committedAfter` condition).
 */
export async function countTradesAfter(
  trx: Transaction<Database>,
  columns: PositionColumns,
  after: OutboxSourcePosition | null,
  cap: number,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (
      select 1 from trades
      where ${sql.ref(columns.seq)} is not null and ${committedAfter(columns, after)}
      limit ${cap}
    ) waiting`.execute(trx);
  return rows[0]?.n ?? 0;
}
