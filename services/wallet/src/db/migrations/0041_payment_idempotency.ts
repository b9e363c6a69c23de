import { sql, type Kysely } from 'kysely';

/**
 * Deposits and withdrawals honour an `Idempotency-Key`, as trade placement does: a retried request
 * (a timeout, a double click, a proxy retry) finds the first request by its key instead of moving
 * money twice. The key is unique per user, so one user's keys never collide with another's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['deposit_requests', 'withdrawal_requests']) {
    await sql`alter table ${sql.table(table)} add column idempotency_key text`.execute(db);
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_idempotency_key_length`)}
      check (idempotency_key is null or length(idempotency_key) between 1 and 128)`.execute(db);
    await sql`create unique index ${sql.id(`${table}_idempotency`)} on ${sql.table(table)} (user_id, idempotency_key)
      where idempotency_key is not null`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['deposit_requests', 'withdrawal_requests']) {
    await sql`alter table ${sql.table(table)} drop column idempotency_key`.execute(db);
  }
}
