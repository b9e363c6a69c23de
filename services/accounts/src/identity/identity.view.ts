import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import type {
  DuplicateSignal,
  IdentityDocument,
  IdentityResponse,
  VerificationSummary,
} from '@updown/schemas/api';
import { usersByIds } from '../auth/users.repository';
import { identityStatus, missingKinds } from './identity.domain';
import {
  documentsByIds,
  duplicateMatches,
  latestSubmission,
  latestUploads,
  type DocumentRow,
  type SubmissionRow,
} from './identity.repository';

/**
 * Identity verification as the API shows it: the trader's own (`GET /api/identity`) and the
 * admin's queue (`/api/admin/verifications`). Reads only; the commands are `identity.handler.ts`
 * and `verification-decision.handler.ts`.
 */

/** A document's facts, never its bytes. */
export function documentView(row: DocumentRow): IdentityDocument {
  return {
    id: row.id,
    kind: row.kind,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    pages: row.pages,
    uploaded_at: row.uploaded_at.toISOString(),
  };
}

/**
 * The trader's verification: under review or decided, the submitted documents; otherwise the
 * latest upload of each kind and the kinds still missing.
 */
export async function loadIdentity(db: Kysely<Database>, userId: string): Promise<IdentityResponse> {
  const latest = await latestSubmission(db, userId);
  const status = identityStatus(latest);
  const underReview = latest && latest.status !== 'rejected';
  const documents: DocumentRow[] = underReview
    ? await documentsByIds(db, [latest.photo_id_document, latest.proof_of_address_document])
    : await latestUploads(db, userId);
  return {
    status,
    missing: underReview ? [] : missingKinds(new Set(documents.map((d) => d.kind))),
    documents: documents.map(documentView),
    full_name: latest?.full_name ?? null,
    date_of_birth: latest?.date_of_birth ?? null,
    rejection_reason: latest?.status === 'rejected' ? latest.rejection_reason : null,
    submitted_at: latest ? latest.submitted_at.toISOString() : null,
    decided_at: latest?.decided_at ? latest.decided_at.toISOString() : null,
    can_withdraw: status === 'verified',
  };
}

/** Summaries of `rows` with the account's name and email, the decider's email and the duplicate signals. */
export async function verificationSummaries(
  db: Kysely<Database>,
  rows: readonly SubmissionRow[],
): Promise<VerificationSummary[]> {
  const owners = rows.map((r) => r.user_id);
  const matches = await duplicateMatches(db, owners);
  const users = await usersByIds(db, [
    ...owners,
    ...rows.flatMap((r) => (r.decided_by ? [r.decided_by] : [])),
    ...matches.map((m) => m.otherUserId),
  ]);
  const signals = new Map<string, DuplicateSignal[]>();
  for (const match of matches) {
    const list = signals.get(match.userId) ?? [];
    list.push({
      user_id: match.otherUserId,
      email: users.get(match.otherUserId)?.email ?? '',
      reason: match.reason,
    });
    signals.set(match.userId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    user_id: row.user_id,
    email: users.get(row.user_id)?.email ?? '',
    account_name: users.get(row.user_id)?.name ?? '',
    full_name: row.full_name,
    date_of_birth: row.date_of_birth,
    status: row.status,
    submitted_at: row.submitted_at.toISOString(),
    decided_at: row.decided_at ? row.decided_at.toISOString() : null,
    decided_by_email: row.decided_by ? (users.get(row.decided_by)?.email ?? null) : null,
    rejection_reason: row.rejection_reason,
    duplicate_signals: signals.get(row.user_id) ?? [],
  }));
}
