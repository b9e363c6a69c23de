import { sql, type Kysely } from 'kysely';

/**
 * Time columns say their unit: the trade's instants are Unix epoch milliseconds, so they end in
 * `_at_ms`. Renames only; the indexes and constraints on these columns follow them, and the one
 * index named after a column is renamed with it.
 */
const RENAMES = [
  ['entry_ts', 'entry_at_ms'],
  ['accepted_at', 'accepted_at_ms'],
  ['expiry_ts', 'expiry_at_ms'],
  ['exit_ts', 'exit_at_ms'],
  ['settled_at', 'settled_at_ms'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [from, to] of RENAMES) {
    await sql`alter table trades rename column ${sql.id(from)} to ${sql.id(to)}`.execute(db);
  }
  await sql`alter index trades_settled_at rename to trades_settled_at_ms`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter index trades_settled_at_ms rename to trades_settled_at`.execute(db);
  for (const [from, to] of RENAMES) {
    await sql`alter table trades rename column ${sql.id(to)} to ${sql.id(from)}`.execute(db);
  }
}
