import { sql, type Kysely } from 'kysely';

/**
 * Identity verification (README "Identity verification").
 *
 * - `identity_documents`: every file a trader uploaded, with its SHA-256 and the type detected from
 *   its bytes. The bytes live here (`content`), in PostgreSQL, so they are backed up and restored
 *   with the rest. `content` becomes null only when the retention job purges it.
 * - `identity_submissions`: each submission of a legal name, a date of birth and one document of
 *   each kind, with its decision. A trader has at most one submission pending or verified (the
 *   partial unique index), so two racing submissions cannot both be pending; a rejected one can be
 *   followed by a new one.
 * - `seq` orders each table's rows as they were written (two in one millisecond included): the
 *   latest upload of a kind and the latest submission are the highest `seq`.
 * - `users.closed_at`: when the account closed; the retention clock starts there.
 * - Retention is enforced by the database: deleting a document or a submission, or purging a
 *   document's bytes, raises unless the owner's account closed at least five years ago.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column closed_at timestamptz`.execute(db);
  await sql`
    create table identity_documents (
      id uuid primary key,
      seq bigint generated always as identity,
      user_id uuid not null references users (id),
      kind text not null,
      content_type text not null,
      size_bytes integer not null,
      sha256 text not null,
      pages integer,
      content bytea,
      uploaded_at timestamptz not null,
      purged_at timestamptz,
      constraint identity_documents_kind check (kind in ('photo_id', 'proof_of_address')),
      constraint identity_documents_type check (content_type in ('image/jpeg', 'image/png', 'application/pdf')),
      constraint identity_documents_size check (size_bytes between 1 and 10485760),
      constraint identity_documents_sha256 check (sha256 ~ '^[0-9a-f]{64}$'),
      constraint identity_documents_pages check ((content_type = 'application/pdf') = (pages is not null)),
      constraint identity_documents_purged check ((content is null) = (purged_at is not null))
    )`.execute(db);
  await sql`create index identity_documents_user on identity_documents (user_id, kind, seq desc)`.execute(db);
  await sql`create index identity_documents_sha256 on identity_documents (sha256)`.execute(db);
  await sql`
    create table identity_submissions (
      id uuid primary key,
      seq bigint generated always as identity,
      user_id uuid not null references users (id),
      full_name text not null,
      name_key text not null,
      date_of_birth date not null,
      photo_id_document uuid not null references identity_documents (id),
      proof_of_address_document uuid not null references identity_documents (id),
      status text not null default 'pending',
      submitted_at timestamptz not null,
      decided_at timestamptz,
      decided_by uuid references users (id),
      rejection_reason text,
      constraint identity_submissions_status check (status in ('pending', 'verified', 'rejected')),
      constraint identity_submissions_decided check ((status = 'pending') = (decided_at is null and decided_by is null)),
      constraint identity_submissions_reason check ((status = 'rejected') = (rejection_reason is not null)),
      constraint identity_submissions_not_own check (decided_by is distinct from user_id)
    )`.execute(db);
  await sql`
    create unique index identity_submissions_open on identity_submissions (user_id)
      where status in ('pending', 'verified')`.execute(db);
  await sql`create index identity_submissions_queue on identity_submissions (status, submitted_at)`.execute(
    db,
  );
  await sql`create index identity_submissions_user on identity_submissions (user_id, seq desc)`.execute(db);
  await sql`create index identity_submissions_person on identity_submissions (name_key, date_of_birth)`.execute(
    db,
  );
  await sql`
    create function identity_retention_guard() returns trigger language plpgsql as $$
    begin
      if not exists (
        select 1 from users u
        where u.id = old.user_id and u.closed_at is not null and u.closed_at <= now() - interval '5 years'
      ) then
        raise exception 'identity data of user % is kept until five years after the account closes', old.user_id
          using errcode = 'P0001';
      end if;
      if tg_op = 'DELETE' then return old; end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger identity_documents_keep before delete on identity_documents
      for each row execute function identity_retention_guard()`.execute(db);
  await sql`
    create trigger identity_documents_keep_content before update of content on identity_documents
      for each row when (old.content is not null and new.content is null)
      execute function identity_retention_guard()`.execute(db);
  await sql`
    create trigger identity_submissions_keep before delete on identity_submissions
      for each row execute function identity_retention_guard()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table identity_submissions`.execute(db);
  await sql`drop table identity_documents`.execute(db);
  await sql`drop function identity_retention_guard()`.execute(db);
  await sql`alter table users drop column closed_at`.execute(db);
}
