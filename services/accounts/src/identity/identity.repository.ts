import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import type { IdentityDocumentKind, IdentityStatus } from '@updown/schemas/api';
import type { InspectedDocument } from './document-inspection';

/**
 * The gateway's identity tables (`identity_documents`, `identity_submissions`). Document bytes are
 * read by `readDocumentContent` only; every other query leaves them in the table.
 */

type Db = Kysely<Database> | Transaction<Database>;

export interface DocumentRow {
  id: string;
  user_id: string;
  kind: IdentityDocumentKind;
  content_type: 'image/jpeg' | 'image/png' | 'application/pdf';
  size_bytes: number;
  sha256: string;
  pages: number | null;
  uploaded_at: Date;
}

export interface SubmissionRow {
  id: string;
  user_id: string;
  full_name: string;
  date_of_birth: string;
  photo_id_document: string;
  proof_of_address_document: string;
  status: 'pending' | 'verified' | 'rejected';
  submitted_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  rejection_reason: string | null;
}

const DOCUMENT_COLUMNS = [
  'id',
  'user_id',
  'kind',
  'content_type',
  'size_bytes',
  'sha256',
  'pages',
  'uploaded_at',
] as const;

/** `date` comes back as text: a JS Date would move it by the process's time zone. */
const submissionColumns = [
  'id',
  'user_id',
  'full_name',
  sql<string>`date_of_birth::text`.as('date_of_birth'),
  'photo_id_document',
  'proof_of_address_document',
  'status',
  'submitted_at',
  'decided_at',
  'decided_by',
  'rejection_reason',
] as const;

export async function insertDocument(
  db: Db,
  input: {
    id: string;
    userId: string;
    kind: IdentityDocumentKind;
    doc: InspectedDocument;
    bytes: Buffer;
    at: number;
  },
): Promise<DocumentRow> {
  return db
    .insertInto('identity_documents')
    .values({
      id: input.id,
      user_id: input.userId,
      kind: input.kind,
      content_type: input.doc.contentType,
      size_bytes: input.doc.sizeBytes,
      sha256: input.doc.sha256,
      pages: input.doc.pages,
      content: input.bytes,
      uploaded_at: new Date(input.at),
    })
    .returning(DOCUMENT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * Serialises one account's uploads and submissions until the transaction ends, so that the daily
 * limit's count and the insert it allows are one step: counted apart, 30 uploads sent at once all
 * saw fewer than 20 and 28 to 30 were stored. An advisory lock keyed on the account rather than a
 * row lock: before its first upload an account has no identity row to lock, and its `users` row is
 * what sign-ins and sessions update, which an upload writing 10 MB should neither wait on nor hold
 * up. Two accounts whose keys collide (64-bit hashes) only wait for each other.
 */
export async function lockAccountUploads(trx: Transaction<Database>, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`identity-uploads:${userId}`}, 0))`.execute(trx);
}

/** When the user's uploads since `since` were made, oldest first: the daily upload limit counts them. */
export async function uploadTimesSince(db: Db, userId: string, since: Date): Promise<Date[]> {
  const rows = await db
    .selectFrom('identity_documents')
    .select('uploaded_at')
    .where('user_id', '=', userId)
    .where('uploaded_at', '>', since)
    .orderBy('uploaded_at')
    .execute();
  return rows.map((r) => r.uploaded_at);
}

/** The newest upload of each kind: what a submission sent now would carry. */
export async function latestUploads(db: Db, userId: string): Promise<DocumentRow[]> {
  return db
    .selectFrom('identity_documents')
    .select(DOCUMENT_COLUMNS)
    .distinctOn('kind')
    .where('user_id', '=', userId)
    .orderBy('kind')
    .orderBy('seq', 'desc')
    .execute();
}

export async function documentsByIds(db: Db, ids: readonly string[]): Promise<DocumentRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('identity_documents')
    .select(DOCUMENT_COLUMNS)
    .where('id', 'in', ids)
    .orderBy('kind')
    .execute();
}

/** A document's bytes for `userId`, or for anyone when `userId` is undefined (an admin). */
export async function readDocumentContent(
  db: Db,
  id: string,
  userId: string | undefined,
): Promise<{ content_type: string; content: Buffer; kind: string } | undefined> {
  let query = db
    .selectFrom('identity_documents')
    .select(['content_type', 'content', 'kind'])
    .where('id', '=', id)
    .where('content', 'is not', null);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const row = await query.executeTakeFirst();
  return row?.content ? { content_type: row.content_type, content: row.content, kind: row.kind } : undefined;
}

export async function latestSubmission(db: Db, userId: string): Promise<SubmissionRow | undefined> {
  return db
    .selectFrom('identity_submissions')
    .select(submissionColumns)
    .where('user_id', '=', userId)
    .orderBy('seq', 'desc')
    .executeTakeFirst();
}

/** Whose submission `id` is; undefined for an unknown id. */
export async function submissionOwner(db: Db, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('identity_submissions')
    .select('user_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.user_id;
}

export async function submissionsOf(db: Db, userId: string): Promise<SubmissionRow[]> {
  return db
    .selectFrom('identity_submissions')
    .select(submissionColumns)
    .where('user_id', '=', userId)
    .orderBy('seq', 'desc')
    .execute();
}

export async function insertSubmission(
  trx: Transaction<Database>,
  input: {
    id: string;
    userId: string;
    fullName: string;
    nameKey: string;
    dateOfBirth: string;
    photoId: string;
    proofOfAddress: string;
    at: number;
  },
): Promise<void> {
  await trx
    .insertInto('identity_submissions')
    .values({
      id: input.id,
      user_id: input.userId,
      full_name: input.fullName,
      name_key: input.nameKey,
      date_of_birth: input.dateOfBirth,
      photo_id_document: input.photoId,
      proof_of_address_document: input.proofOfAddress,
      submitted_at: new Date(input.at),
    })
    .execute();
}

/** The submission, locked for its decision (`for update`): of two admins deciding, the second waits and then sees it decided. */
export async function lockSubmission(
  trx: Transaction<Database>,
  id: string,
): Promise<SubmissionRow | undefined> {
  return trx
    .selectFrom('identity_submissions')
    .select(submissionColumns)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function decideSubmission(
  trx: Transaction<Database>,
  input: { id: string; status: 'verified' | 'rejected'; adminId: string; reason: string | null; at: number },
): Promise<SubmissionRow> {
  return trx
    .updateTable('identity_submissions')
    .set({
      status: input.status,
      decided_by: input.adminId,
      decided_at: new Date(input.at),
      rejection_reason: input.reason,
    })
    .where('id', '=', input.id)
    .where('status', '=', 'pending')
    .returning(submissionColumns)
    .executeTakeFirstOrThrow();
}

export const VERIFICATIONS_LIST_MAX = 200;

/** Submissions by status: the queue (pending) oldest first, decided ones newest first. */
export async function listSubmissions(
  db: Db,
  status: 'pending' | 'verified' | 'rejected' | 'all',
): Promise<SubmissionRow[]> {
  let query = db.selectFrom('identity_submissions').select(submissionColumns);
  if (status !== 'all') query = query.where('status', '=', status);
  query = status === 'pending' ? query.orderBy('seq', 'asc') : query.orderBy('seq', 'desc');
  return query.limit(VERIFICATIONS_LIST_MAX).execute();
}

export interface DuplicateMatch {
  readonly userId: string;
  readonly otherUserId: string;
  readonly reason: 'same_document' | 'same_name_and_birth_date';
}

/**
 * Other accounts that may belong to the same person as each of `userIds`: one that uploaded a file
 * with the same SHA-256, or submitted the same folded name and date of birth. Symmetric, so both
 * accounts are flagged. A signal for the admin; nothing is blocked on it.
 */
export async function duplicateMatches(db: Db, userIds: readonly string[]): Promise<DuplicateMatch[]> {
  if (userIds.length === 0) return [];
  const ids = [...new Set(userIds)];
  const [sameDocument, samePerson] = await Promise.all([
    db
      .selectFrom('identity_documents as mine')
      .innerJoin('identity_documents as theirs', (join) =>
        join.onRef('theirs.sha256', '=', 'mine.sha256').onRef('theirs.user_id', '<>', 'mine.user_id'),
      )
      .select(['mine.user_id as userId', 'theirs.user_id as otherUserId'])
      .distinct()
      .where('mine.user_id', 'in', ids)
      .execute(),
    db
      .selectFrom('identity_submissions as mine')
      .innerJoin('identity_submissions as theirs', (join) =>
        join
          .onRef('theirs.name_key', '=', 'mine.name_key')
          .onRef('theirs.date_of_birth', '=', 'mine.date_of_birth')
          .onRef('theirs.user_id', '<>', 'mine.user_id'),
      )
      .select(['mine.user_id as userId', 'theirs.user_id as otherUserId'])
      .distinct()
      .where('mine.user_id', 'in', ids)
      .execute(),
  ]);
  return [
    ...sameDocument.map((m) => ({ ...m, reason: 'same_document' as const })),
    ...samePerson.map((m) => ({ ...m, reason: 'same_name_and_birth_date' as const })),
  ];
}

/** Each user's verification state, for lists (the admin's withdrawals). */
export async function identityStatuses(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, IdentityStatus>> {
  const out = new Map<string, IdentityStatus>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('identity_submissions')
    .select(['user_id', 'status'])
    .distinctOn('user_id')
    .where('user_id', 'in', [...new Set(userIds)])
    .orderBy('user_id')
    .orderBy('seq', 'desc')
    .execute();
  for (const row of rows) out.set(row.user_id, row.status);
  return out;
}
