import { sql, type Kysely } from 'kysely';
import { up as createOutbox } from './0001_outbox';

/**
 * Drops the `outbox` table: every event the relay publishes now comes from a table that is its own
 * outbox (an `OutboxSource`, with its cursor in `outbox_cursors`), and nothing writes `outbox` rows.
 * An event still waiting there would be lost with the table, so the migration refuses while any
 * row is unpublished; the table is locked first, so none can be added between the count and the
 * drop. A relay of an earlier release still running after this migration fails its passes (it
 * polls the table) until it is replaced; the relays of this release publish meanwhile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`lock table outbox in access exclusive mode`.execute(db);
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from outbox where published_at is null`.execute(db);
  const unpublished = rows[0]?.n ?? 0;
  if (unpublished > 0) {
    throw new Error(
      `The outbox table still holds ${unpublished} unpublished event(s), which dropping it would lose. ` +
        `Run the previous release (its outbox relay: npm start, or the order and settlement services) ` +
        `until its updown_outbox_backlog is 0, then migrate again.`,
    );
  }
  await sql`drop table outbox`.execute(db);
}

/** The table as `0001_outbox` created it, empty. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await createOutbox(db);
}
