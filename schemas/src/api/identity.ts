import { Type, type Static } from '@sinclair/typebox';
import { RequestBody } from './request-body';
import { refusal } from './refusal';

/**
 * Identity verification (README "Identity verification"): a trader uploads a photo ID and a proof
 * of address and submits them with their legal name and date of birth; an admin approves or
 * rejects; real withdrawals wait for an approval. The files themselves travel as multipart
 * uploads and raw bytes, never inside JSON.
 */

/** Largest document, bytes (10 MiB). Checked while the upload streams in. */
export const IDENTITY_DOCUMENT_BYTES_MAX = 10 * 1024 * 1024;
/** Most pages a PDF document may have: an ID card or a utility bill needs a few, not thousands. */
export const IDENTITY_PDF_PAGES_MAX = 10;
/** Largest image side and pixel count: bigger pictures are refused before anyone decodes them. */
export const IDENTITY_IMAGE_SIDE_MAX = 12_000;
export const IDENTITY_IMAGE_PIXELS_MAX = 50_000_000;
/** Most documents one account may upload in 24 hours: enough for every retry a person makes. */
export const IDENTITY_UPLOADS_PER_DAY = 20;
/** The content types a document may have, as detected from its bytes. */
export const IDENTITY_CONTENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
/** Youngest a verified trader may be, years (the terms' age rule). */
export const IDENTITY_MINIMUM_AGE_YEARS = 18;
/** How long verification data is kept after the account closes, years (the AML policy). */
export const IDENTITY_RETENTION_YEARS = 5;
export const IDENTITY_REJECTION_REASON_LENGTH_MAX = 500;
export const IDENTITY_FULL_NAME_LENGTH_MAX = 100;

export const IdentityDocumentKind = Type.Union([Type.Literal('photo_id'), Type.Literal('proof_of_address')], {
  title: 'IdentityDocumentKind',
  description:
    'photo_id: passport, national ID card or driving licence; proof_of_address: a utility bill or bank statement',
});
export type IdentityDocumentKind = Static<typeof IdentityDocumentKind>;

export const IdentityStatus = Type.Union(
  [Type.Literal('not_started'), Type.Literal('pending'), Type.Literal('verified'), Type.Literal('rejected')],
  { title: 'IdentityStatus' },
);
export type IdentityStatus = Static<typeof IdentityStatus>;

export const IdentityDocument = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: IdentityDocumentKind,
    content_type: Type.Union(
      IDENTITY_CONTENT_TYPES.map((t) => Type.Literal(t)),
      {
        description: 'Detected from the file content, not from its name or the upload header',
      },
    ),
    size_bytes: Type.Integer({ minimum: 1 }),
    sha256: Type.String({ description: 'SHA-256 of the file, hex' }),
    pages: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'Page count of a PDF; null for an image',
    }),
    uploaded_at: Type.String({ format: 'date-time' }),
  },
  { title: 'IdentityDocument' },
);
export type IdentityDocument = Static<typeof IdentityDocument>;

/** The trader's own verification: GET /api/identity. */
export const IdentityResponse = Type.Object(
  {
    status: IdentityStatus,
    /** What is still needed before a submission can be sent; empty once pending or verified. */
    missing: Type.Array(IdentityDocumentKind),
    /** The documents of the pending or verified submission, else the uploads waiting to be submitted. */
    documents: Type.Array(IdentityDocument),
    full_name: Type.Union([Type.String(), Type.Null()]),
    date_of_birth: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    rejection_reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Set when status is rejected',
    }),
    submitted_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    can_withdraw: Type.Boolean({ description: 'True once verified: real withdrawals are open' }),
  },
  { title: 'Identity' },
);
export type IdentityResponse = Static<typeof IdentityResponse>;

export const IdentitySubmitRequest = RequestBody(
  {
    full_name: Type.String({
      minLength: 2,
      maxLength: IDENTITY_FULL_NAME_LENGTH_MAX,
      description: 'Legal name as on the photo ID (a name of spaces or punctuation only is refused)',
      ...refusal('INVALID_IDENTITY_DETAILS', { '*': 'Enter your full name as on your photo ID' }),
    }),
    date_of_birth: Type.String({
      format: 'date',
      description: 'YYYY-MM-DD',
      ...refusal('INVALID_IDENTITY_DETAILS', { '*': 'Enter your date of birth as YYYY-MM-DD' }),
    }),
  },
  { title: 'IdentitySubmitRequest' },
);
export type IdentitySubmitRequest = Static<typeof IdentitySubmitRequest>;

/**
 * `POST /api/identity/documents` as `multipart/form-data`: the two parts the gateway reads itself
 * (so it is the route's `multipart` schema, shown in the document, not a `body` Fastify checks).
 * Another part, a second file or a file over the limit is refused with 400 or 413.
 */
export const IdentityUploadForm = Type.Object(
  {
    kind: IdentityDocumentKind,
    file: Type.String({
      format: 'binary',
      description: `A JPEG, PNG or PDF of at most ${IDENTITY_DOCUMENT_BYTES_MAX / (1024 * 1024)} MB, judged from its bytes: the part's file name and Content-Type are ignored`,
    }),
  },
  { title: 'IdentityUploadForm', additionalProperties: false },
);

export const IdentityDocumentParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const DuplicateSignal = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    reason: Type.Union([Type.Literal('same_document'), Type.Literal('same_name_and_birth_date')]),
  },
  { title: 'DuplicateSignal', description: 'Another account that may belong to the same person' },
);
export type DuplicateSignal = Static<typeof DuplicateSignal>;

export const VerificationSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    user_id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    account_name: Type.String({ description: 'The name on the account' }),
    full_name: Type.String({ description: 'The legal name submitted' }),
    date_of_birth: Type.String({ format: 'date' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('rejected')]),
    submitted_at: Type.String({ format: 'date-time' }),
    decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    decided_by_email: Type.Union([Type.String(), Type.Null()]),
    rejection_reason: Type.Union([Type.String(), Type.Null()]),
    duplicate_signals: Type.Array(DuplicateSignal),
  },
  { title: 'VerificationSummary' },
);
export type VerificationSummary = Static<typeof VerificationSummary>;
export const VerificationList = Type.Array(VerificationSummary, { title: 'VerificationList' });

export const VerificationDetail = Type.Composite(
  [
    VerificationSummary,
    Type.Object({
      documents: Type.Array(IdentityDocument),
      /** Every submission of this trader, newest first, with its decision: the history an auditor reads. */
      history: Type.Array(
        Type.Object({
          id: Type.String({ format: 'uuid' }),
          status: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('rejected')]),
          submitted_at: Type.String({ format: 'date-time' }),
          decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
          decided_by_email: Type.Union([Type.String(), Type.Null()]),
          rejection_reason: Type.Union([Type.String(), Type.Null()]),
        }),
      ),
    }),
  ],
  { title: 'VerificationDetail' },
);
export type VerificationDetail = Static<typeof VerificationDetail>;

export const VerificationsQuery = Type.Object({
  status: Type.Optional(
    Type.Union(
      [Type.Literal('pending'), Type.Literal('verified'), Type.Literal('rejected'), Type.Literal('all')],
      {
        default: 'pending',
        description:
          'Which submissions: pending (the queue, oldest first; the default) or decided ones, newest first',
        ...refusal('VALIDATION', { '*': 'status is pending, verified, rejected or all' }),
      },
    ),
  ),
});

export const VerificationDecisionRequest = RequestBody(
  {
    action: Type.Union([Type.Literal('approve'), Type.Literal('reject')], {
      ...refusal('VALIDATION', { '*': 'action is approve or reject' }),
    }),
    reason: Type.Optional(
      Type.String({
        maxLength: IDENTITY_REJECTION_REASON_LENGTH_MAX,
        description: 'Required to reject: what the trader must fix. Shown to the trader.',
        ...refusal('VALIDATION', {
          '*': `The reason is at most ${IDENTITY_REJECTION_REASON_LENGTH_MAX} characters`,
        }),
      }),
    ),
  },
  { title: 'VerificationDecisionRequest' },
);
export type VerificationDecisionRequest = Static<typeof VerificationDecisionRequest>;
