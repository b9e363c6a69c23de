import { sql, type Kysely } from 'kysely';
import { tradePairs } from '@updown/order';
import type { Database } from '@updown/runtime';

/**
 * Disputes are listed to admins a page at a time and filed under per-trader caps
 * (README "Provable settlement"):
 *
 * - `pair` is kept with the dispute, as `trade_receipts` keeps it, so the admin list filters by
 *   pair in its own statement. Disputes filed before this migration take it from their trade once,
 *   here, through order's own query (`tradePairs`); every dispute filed afterwards writes it itself.
 * - Pages are read newest first by the key (created_at_ms, id): the id breaks ties between
 *   disputes filed in the same millisecond, so a page boundary never skips or repeats one. Each
 *   index below serves one filter of that list with the same order.
 * - The open disputes of one trader are counted under a lock at every filing; the partial index
 *   keeps that count to the open ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table trade_disputes add column pair text`.execute(db);
  await backfillPairs(db as Kysely<Database>);
  await sql`alter table trade_disputes alter column pair set not null`.execute(db);
  await sql`drop index trade_disputes_user`.execute(db);
  await sql`drop index trade_disputes_status`.execute(db);
  await sql`create index trade_disputes_page on trade_disputes (created_at_ms desc, id desc)`.execute(db);
  await sql`create index trade_disputes_status_page on trade_disputes (status, created_at_ms desc, id desc)`.execute(
    db,
  );
  await sql`create index trade_disputes_user_page on trade_disputes (user_id, created_at_ms desc, id desc)`.execute(
    db,
  );
  await sql`create index trade_disputes_pair_page on trade_disputes (pair, created_at_ms desc, id desc)`.execute(
    db,
  );
  await sql`create index trade_disputes_open_by_user on trade_disputes (user_id) where status = 'open'`.execute(
    db,
  );
}

/** Most disputes read per round of the backfill, so its memory stays bounded on any table size. */
const BACKFILL_BATCH = 1_000;

async function backfillPairs(db: Kysely<Database>): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ trade_id: string }>`
      select trade_id from trade_disputes where pair is null limit ${BACKFILL_BATCH}`.execute(db);
    if (rows.length === 0) return;
    const pairs = await tradePairs(
      db,
      rows.map((row) => row.trade_id),
    );
    const byPair = new Map<string, string[]>();
    for (const { trade_id } of rows) {
      const pair = pairs.get(trade_id);
      // Every dispute was filed against a trade it had just read; one without is damage to look at.
      if (pair === undefined)
        throw new Error(`trade ${trade_id} of a dispute is missing: its pair cannot be filled in`);
      byPair.set(pair, [...(byPair.get(pair) ?? []), trade_id]);
    }
    for (const [pair, tradeIds] of byPair) {
      await sql`update trade_disputes set pair = ${pair} where trade_id = any(${tradeIds}::uuid[]) and pair is null`.execute(
        db,
      );
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index trade_disputes_open_by_user`.execute(db);
  await sql`drop index trade_disputes_pair_page`.execute(db);
  await sql`drop index trade_disputes_user_page`.execute(db);
  await sql`drop index trade_disputes_status_page`.execute(db);
  await sql`drop index trade_disputes_page`.execute(db);
  await sql`create index trade_disputes_user on trade_disputes (user_id, created_at_ms desc)`.execute(db);
  await sql`create index trade_disputes_status on trade_disputes (status, created_at_ms desc)`.execute(db);
  await sql`alter table trade_disputes drop column pair`.execute(db);
}
