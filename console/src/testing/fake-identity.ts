import type {
  IdentityDocument,
  IdentityResponse,
  VerificationDetail,
  VerificationSummary,
} from '../lib/identity';

/** A JPEG photo ID of 1.5 MB, as `POST /api/identity/documents` answers it. */
export function identityDocument(overrides: Partial<IdentityDocument> = {}): IdentityDocument {
  return {
    id: 'dddddddd-0000-4000-8000-000000000001',
    kind: 'photo_id',
    content_type: 'image/jpeg',
    size_bytes: 1_572_864,
    sha256: 'a'.repeat(64),
    pages: null,
    uploaded_at: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

/** A 3-page PDF utility bill. */
export const PROOF_OF_ADDRESS_PDF = identityDocument({
  id: 'dddddddd-0000-4000-8000-000000000002',
  kind: 'proof_of_address',
  content_type: 'application/pdf',
  size_bytes: 250_000,
  pages: 3,
});

/** `GET /api/identity` of a trader who has not uploaded anything yet, unless overridden. */
export function identityResponse(overrides: Partial<IdentityResponse> = {}): IdentityResponse {
  return {
    status: 'not_started',
    missing: ['photo_id', 'proof_of_address'],
    documents: [],
    full_name: null,
    date_of_birth: null,
    rejection_reason: null,
    submitted_at: null,
    decided_at: null,
    can_withdraw: false,
    ...overrides,
  };
}

/** Both documents uploaded, nothing submitted: the details are all that is missing. */
export const READY_TO_SUBMIT = identityResponse({
  missing: [],
  documents: [identityDocument(), PROOF_OF_ADDRESS_PDF],
});

export const PENDING_IDENTITY = identityResponse({
  status: 'pending',
  missing: [],
  documents: [identityDocument(), PROOF_OF_ADDRESS_PDF],
  full_name: 'Ann Marie Lee',
  date_of_birth: '1990-04-12',
  submitted_at: '2026-11-21T11:00:00.000Z',
});

export const VERIFIED_IDENTITY = identityResponse({
  ...PENDING_IDENTITY,
  status: 'verified',
  decided_at: '2026-11-21T12:00:00.000Z',
  can_withdraw: true,
});

/** Rejected: the documents are gone (they belong to the rejected submission), the details stay. */
export const REJECTED_IDENTITY = identityResponse({
  status: 'rejected',
  full_name: 'Ann Marie Lee',
  date_of_birth: '1990-04-12',
  rejection_reason: 'The photo ID is blurred: upload a sharper picture',
  submitted_at: '2026-11-21T11:00:00.000Z',
  decided_at: '2026-11-21T12:00:00.000Z',
});

/** A pending submission in the admin's queue, with no duplicate signals. */
export function verificationSummary(overrides: Partial<VerificationSummary> = {}): VerificationSummary {
  return {
    id: 'eeeeeeee-0000-4000-8000-000000000001',
    user_id: '00000000-0000-4000-8000-0000000000a1',
    email: 'ann@example.com',
    account_name: 'Ann Lee',
    full_name: 'Ann Marie Lee',
    date_of_birth: '1990-04-12',
    status: 'pending',
    submitted_at: '2026-11-21T11:00:00.000Z',
    decided_at: null,
    decided_by_email: null,
    rejection_reason: null,
    duplicate_signals: [],
    ...overrides,
  };
}

/** The summary with a JPEG photo ID, a PDF proof of address and one earlier, rejected submission. */
export function verificationDetail(overrides: Partial<VerificationDetail> = {}): VerificationDetail {
  const summary = verificationSummary(overrides);
  return {
    ...summary,
    documents: [identityDocument(), PROOF_OF_ADDRESS_PDF],
    history: [
      {
        id: summary.id,
        status: summary.status,
        submitted_at: summary.submitted_at,
        decided_at: summary.decided_at,
        decided_by_email: summary.decided_by_email,
        rejection_reason: summary.rejection_reason,
      },
      {
        id: 'eeeeeeee-0000-4000-8000-000000000000',
        status: 'rejected',
        submitted_at: '2026-11-20T09:00:00.000Z',
        decided_at: '2026-11-20T10:00:00.000Z',
        decided_by_email: 'admin@example.com',
        rejection_reason: 'The proof of address is older than three months',
      },
    ],
    ...overrides,
  };
}
