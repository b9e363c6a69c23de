import { sql, type Kysely } from 'kysely';

/**
 * Payment intents: a charge the wallet is about to ask the payment provider for, recorded and
 * committed before the call so the provider is never called while the user's locks are held. The
 * result is recorded in a second transaction; a crash between the two leaves the intent `pending`,
 * and start-up recovery asks the provider for its outcome.
 *
 * - `request_id` is the deposit request the charge pays (its row exists at once for an approval,
 *   only on success for an immediate deposit) and the provider's reference, so a provider that
 *   deduplicates on it charges one request once however often it is asked.
 * - A declined charge stays as `failed`; a retry makes a new intent, so the uniqueness of request
 *   and idempotency key holds among the intents that are not `failed`.
 * - No foreign key to `users`: the wallet's tables do not reach into the gateway's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payment_intents (
      id uuid primary key,
      request_id uuid not null,
      user_id uuid not null,
      amount_cents bigint not null,
      kind text not null,
      status text not null default 'pending',
      provider_ref text,
      idempotency_key text,
      decided_by uuid,
      created_at timestamptz not null,
      decided_at timestamptz,
      constraint payment_intents_amount check (amount_cents > 0 and amount_cents <= 100000000),
      constraint payment_intents_kind check (kind in ('deposit', 'deposit_approval')),
      constraint payment_intents_status check (status in ('pending', 'succeeded', 'failed')),
      constraint payment_intents_decided check ((status = 'pending') = (decided_at is null)),
      constraint payment_intents_approver check ((kind = 'deposit_approval') = (decided_by is not null)),
      constraint payment_intents_idempotency_key_length
        check (idempotency_key is null or length(idempotency_key) between 1 and 128)
    )`.execute(db);
  await sql`create unique index payment_intents_request on payment_intents (request_id)
    where status <> 'failed'`.execute(db);
  await sql`create unique index payment_intents_idempotency on payment_intents (user_id, idempotency_key)
    where idempotency_key is not null and status <> 'failed'`.execute(db);
  await sql`create index payment_intents_pending on payment_intents (created_at)
    where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table payment_intents`.execute(db);
}
