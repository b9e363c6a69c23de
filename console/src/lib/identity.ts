import { urlOf } from './api-client';
import type { Schemas } from './api-schema';

/**
 * Identity verification (KYC), shared by the trader's Verification card, the wallet's withdraw
 * notice and the admin's Verification and Withdrawals tabs: the API's types, the labels and badges
 * of a status, and the limits the server checks (README "Identity verification").
 */
export type IdentityResponse = Schemas['Identity'];
export type IdentityStatus = Schemas['IdentityStatus'];
export type IdentityDocument = Schemas['IdentityDocument'];
export type IdentityDocumentKind = Schemas['IdentityDocumentKind'];
export type IdentitySubmitRequest = Schemas['IdentitySubmitRequest'];
export type DuplicateSignal = Schemas['DuplicateSignal'];
export type VerificationSummary = Schemas['VerificationSummary'];
export type VerificationDetail = Schemas['VerificationDetail'];
export type VerificationDecisionRequest = Schemas['VerificationDecisionRequest'];

export type VerificationStatus = VerificationSummary['status'];
export type VerificationsFilter = VerificationStatus | 'all';
export type VerificationHistoryEntry = VerificationDetail['history'][number];

// The server's limits (schemas/src/api/identity.ts), repeated: the console imports only types from
// the schemas' API module, whose values would bring TypeBox into the bundle.
/** IDENTITY_DOCUMENT_BYTES_MAX: the largest document, 10 MiB. */
export const IDENTITY_DOCUMENT_BYTES_MAX = 10 * 1024 * 1024;
/** IDENTITY_PDF_PAGES_MAX: the most pages a PDF document may have, and the most the viewer draws. */
export const IDENTITY_PDF_PAGES_MAX = 10;
export const IDENTITY_REJECTION_REASON_LENGTH_MAX = 500;
export const IDENTITY_FULL_NAME_LENGTH_MAX = 100;
export const IDENTITY_FULL_NAME_LENGTH_MIN = 2;

/** The file picker's filter; the server checks the bytes, not the name. */
export const IDENTITY_DOCUMENT_ACCEPT = '.jpg,.jpeg,.png,.pdf';
export const IDENTITY_DOCUMENT_NOTE = 'JPEG, PNG or PDF, up to 10 MB';
/** The server's own words for a file over the limit, said before 10 MB are sent for nothing. */
export const IDENTITY_DOCUMENT_TOO_LARGE = 'A document may be at most 10 MB';

export const DOCUMENT_KINDS: readonly IdentityDocumentKind[] = ['photo_id', 'proof_of_address'];

export const DOCUMENT_KIND_LABEL: Record<IdentityDocumentKind, string> = {
  photo_id: 'Photo ID',
  proof_of_address: 'Proof of address',
};

const CONTENT_TYPE_LABEL: Record<IdentityDocument['content_type'], string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'application/pdf': 'PDF',
};

export function contentTypeLabel(contentType: IdentityDocument['content_type']): string {
  return CONTENT_TYPE_LABEL[contentType] ?? contentType;
}

/** The trader's card says what happens next. */
export const IDENTITY_STATUS_LABEL: Record<IdentityStatus, string> = {
  not_started: 'Not started',
  pending: 'Pending review',
  verified: 'Verified',
  rejected: 'Rejected',
};

/** The admin's tables are narrower. */
export const IDENTITY_STATUS_SHORT_LABEL: Record<IdentityStatus, string> = {
  not_started: 'Not started',
  pending: 'Pending',
  verified: 'Verified',
  rejected: 'Rejected',
};

/** Verified is done, pending waits on an admin, rejected needs the trader; not started is neutral. */
export function identityBadgeClass(status: IdentityStatus): string {
  if (status === 'verified') return 'badge badge--up';
  if (status === 'pending') return 'badge badge--pending';
  if (status === 'rejected') return 'badge badge--down';
  return 'badge badge--neutral';
}

const DUPLICATE_REASON_LABEL: Record<DuplicateSignal['reason'], string> = {
  same_document: 'Same document as',
  same_name_and_birth_date: 'Same name and date of birth as',
};

/** `'Same document as bob@example.com'`. */
export function duplicateSignalText(signal: DuplicateSignal): string {
  return `${DUPLICATE_REASON_LABEL[signal.reason] ?? 'Possibly the same person as'} ${signal.email}`;
}

/** `'840 B'`, `'312 KB'`, `'2.4 MB'` (1024-based, as the 10 MB limit is). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `'Photo ID · JPEG · 1.2 MB'`. */
export function documentSummary(document: IdentityDocument): string {
  return [
    DOCUMENT_KIND_LABEL[document.kind] ?? document.kind,
    contentTypeLabel(document.content_type),
    formatBytes(document.size_bytes),
  ].join(' · ');
}

/** Where a document's bytes are: its owner and admins may read them. */
export function identityDocumentPath(id: string): string {
  return urlOf('/api/identity/documents/{id}', { id });
}

/** A `YYYY-MM-DD` date as the reader's locale writes it, without a time zone shifting the day. */
export function formatBirthDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  const [, year, month, day] = match;
  return new Date(Number(year), Number(month) - 1, Number(day)).toLocaleDateString();
}
