import type pg from 'pg';
import type { BareBatch } from './ledger-workload';

/**
 * The ledger benchmark's reference: the same rows written by plain SQL with nothing checked. The
 * tables live in a schema `bare` of the benchmark's own database, copied from the ledger's with
 * `like … including all excluding constraints`: the same columns, defaults, primary keys, unique
 * and secondary indexes (so the same index maintenance per row) and storage parameters, but
 * neither check constraints nor triggers (no non-negative check, no balanced-entry trigger, no
 * append-only trigger). The ledger's postings have no foreign keys (the balanced-entry trigger
 * checks their entry and account exist, once per statement), so neither have the copies. The writer skips the engine's validation,
 * request hashing and idempotency handling too: one statement per transaction inserts the entries
 * and postings and applies the balance changes, with account ids already known.
 */

export const BARE_SCHEMA = 'bare';

export async function createBareLedger(pool: pg.Pool): Promise<void> {
  await pool.query(`
    drop schema if exists ${BARE_SCHEMA} cascade;
    create schema ${BARE_SCHEMA};
    create table ${BARE_SCHEMA}.ledger_accounts (like public.ledger_accounts including all excluding constraints);
    create table ${BARE_SCHEMA}.ledger_entries (like public.ledger_entries including all excluding constraints);
    create table ${BARE_SCHEMA}.ledger_postings (like public.ledger_postings including all excluding constraints);
  `);
  for (const table of ['ledger_accounts', 'ledger_entries', 'ledger_postings']) {
    // `like` copies the id defaults, which name the ledger's own sequences; give the copies theirs.
    await pool.query(`
      create sequence ${BARE_SCHEMA}.${table}_id_seq owned by ${BARE_SCHEMA}.${table}.id;
      alter table ${BARE_SCHEMA}.${table} alter column id set default nextval('${BARE_SCHEMA}.${table}_id_seq');
    `);
    // Nor does it copy storage parameters such as `fillfactor`, which decide how rows are laid out.
    const { rows } = await pool.query<{ options: string | null }>(
      `select array_to_string(reloptions, ', ') as options from pg_class where oid = $1::regclass`,
      [`public.${table}`],
    );
    const options = rows[0]?.options;
    if (options) await pool.query(`alter table ${BARE_SCHEMA}.${table} set (${options})`);
  }
  // The same accounts with the same ids and balances, so the same rows are touched.
  await pool.query(`insert into ${BARE_SCHEMA}.ledger_accounts select * from public.ledger_accounts`);
  await pool.query(`analyze ${BARE_SCHEMA}.ledger_accounts`);
}

/** Every account code of the copy with its id (the same ids as the ledger's). */
export async function bareAccountIds(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ id: string; code: string }>(
    `select id, code from ${BARE_SCHEMA}.ledger_accounts`,
  );
  return new Map(rows.map((row) => [row.code, Number(row.id)]));
}

/**
 * A constant of the length of the engine's SHA-256 hex request hash: the row is as wide as the
 * engine's, but nothing is hashed.
 */
const PLACEHOLDER_HASH = '0'.repeat(64);

/**
 * Writes one batch in one statement (a transaction of its own). The accounts are locked in id
 * order first, as the engine locks them: without it, concurrent batches updating the same house
 * rows in plan order would deadlock, and no correct writer can skip that. `balance_after` is
 * written as 0: the bare writer keeps no running balances.
 */
export async function writeBareBatch(pool: pg.Pool, batch: BareBatch): Promise<void> {
  await pool.query(
    `with entries as (
       insert into ${BARE_SCHEMA}.ledger_entries (kind, idempotency_key, request_hash, ref)
       select kind, key, $3, ref::jsonb from unnest($1::text[], $2::text[], $4::text[]) as i (kind, key, ref)
       returning id, idempotency_key
     ),
     locked as materialized (
       select id from ${BARE_SCHEMA}.ledger_accounts where id = any($5::bigint[]) order by id for update
     ),
     balances as (
       update ${BARE_SCHEMA}.ledger_accounts a set balance = a.balance + d.delta
       from unnest($5::bigint[], $6::bigint[]) as d (id, delta)
       where a.id = d.id and a.id in (select id from locked)
     )
     insert into ${BARE_SCHEMA}.ledger_postings (entry_id, account_id, amount, balance_after)
     select e.id, p.account_id, p.amount, 0
     from unnest($7::text[], $8::bigint[], $9::bigint[]) as p (key, account_id, amount)
     join entries e on e.idempotency_key = p.key`,
    [
      batch.entryKinds,
      batch.entryKeys,
      PLACEHOLDER_HASH,
      batch.entryRefs,
      batch.accountIds,
      batch.accountDeltas,
      batch.postingKeys,
      batch.postingAccountIds,
      batch.postingAmounts,
    ],
  );
}
