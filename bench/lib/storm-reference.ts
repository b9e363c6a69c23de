import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

/**
 * The floor for writing the storm's postings: the same number of rows inserted by one bare
 * `INSERT … SELECT generate_series` into a copy of `ledger_postings` with the same columns, checks
 * and indexes (`like … including all`) but none of the ledger's triggers or foreign keys, already
 * holding the rows the ledger held before the storm so both indexes are the same size. One
 * statement, one commit, under the same server settings.
 */

const COPY_TABLE = 'storm_bare_postings';

export interface BareWriteResult {
  readonly rows: number;
  readonly ms: number;
}

export async function bareWritePostings(
  db: Kysely<Database>,
  options: { rows: number; prefillUpToId: number },
): Promise<BareWriteResult> {
  await sql`drop table if exists ${sql.table(COPY_TABLE)}`.execute(db);
  await sql`create table ${sql.table(COPY_TABLE)} (like ledger_postings including all)`.execute(db);
  // `including all` copies the default too, which would draw ids from the ledger's own sequence.
  await sql`create sequence ${sql.table(`${COPY_TABLE}_id_seq`)} owned by ${sql.raw(`${COPY_TABLE}.id`)}`.execute(
    db,
  );
  await sql`alter table ${sql.table(COPY_TABLE)} alter column id set default nextval(${sql.lit(`${COPY_TABLE}_id_seq`)}::regclass)`.execute(
    db,
  );
  await sql`insert into ${sql.table(COPY_TABLE)} select * from ledger_postings where id <= ${options.prefillUpToId}`.execute(
    db,
  );
  await sql`select setval(${`${COPY_TABLE}_id_seq`}::regclass, greatest(${options.prefillUpToId}, 1))`.execute(
    db,
  );
  await sql`vacuum analyze ${sql.table(COPY_TABLE)}`.execute(db);
  await sql`checkpoint`.execute(db);

  const bounds = await sql<{ accounts: number; entries: number }>`
    select (select max(id) from ledger_accounts) as accounts, (select max(id) from ledger_entries) as entries`.execute(
    db,
  );
  const { accounts, entries } = bounds.rows[0]!;
  const started = performance.now();
  // Values shaped like settlement's: three postings per entry, spread over all accounts, non-zero amounts.
  await db.transaction().execute(async (trx) => {
    await sql`
      insert into ${sql.table(COPY_TABLE)} (entry_id, account_id, amount, balance_after, created_at)
      select ${entries}::bigint + g / 3 + 1, 1 + (g * 7919) % ${accounts}::bigint,
             (g % 9901 + 1) * (1 - 2 * (g % 2)), g, now()
      from generate_series(0::bigint, ${options.rows - 1}::bigint) as g`.execute(trx);
  });
  const ms = performance.now() - started;
  await sql`drop table ${sql.table(COPY_TABLE)}`.execute(db);
  return { rows: options.rows, ms };
}
