import { sql, type Kysely } from 'kysely';

/**
 * Deposit and withdrawal requests. (Databases migrated before each package kept its own migrations
 * also got the admin audit trail here; it now lives in the gateway's `0040a_admin_audit`.)
 *
 * - A request's `status` leaves `pending` exactly once; the approve/reject handlers guard with
 *   `... where status = 'pending' returning`, and the check below keeps a decided row complete.
 * - An immediate real deposit (approval switched off) is stored straight as `approved`, so the
 *   admin list shows every real deposit the platform took.
 * - `first_deposit_bonus_used` is not a column: it is "this user has any row in `bonuses`", which
 *   cannot drift from the bonuses themselves. `bonuses_user` makes that look-up an index probe.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['deposit_requests', 'withdrawal_requests']) {
    await sql`
      create table ${sql.table(table)} (
        id uuid primary key,
        user_id uuid not null references users (id),
        amount_cents bigint not null,
        account_type text not null default 'real',
        status text not null default 'pending',
        provider_ref text,
        created_at timestamptz not null,
        decided_at timestamptz,
        decided_by uuid references users (id),
        constraint ${sql.id(`${table}_amount`)} check (amount_cents > 0 and amount_cents <= 100000000),
        constraint ${sql.id(`${table}_account_type`)} check (account_type in ('real', 'demo')),
        constraint ${sql.id(`${table}_status`)} check (status in ('pending', 'approved', 'rejected')),
        constraint ${sql.id(`${table}_decided`)} check ((status = 'pending') = (decided_at is null))
      )`.execute(db);
    await sql`create index ${sql.id(`${table}_created`)} on ${sql.table(table)} (created_at desc, id)`.execute(
      db,
    );
    await sql`create index ${sql.id(`${table}_user`)} on ${sql.table(table)} (user_id, created_at desc)`.execute(
      db,
    );
  }

  await sql`create index bonuses_user on bonuses (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index bonuses_user`.execute(db);
  await sql`drop table withdrawal_requests`.execute(db);
  await sql`drop table deposit_requests`.execute(db);
}
