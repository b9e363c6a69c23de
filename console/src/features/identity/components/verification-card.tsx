import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import {
  DOCUMENT_KINDS,
  DOCUMENT_KIND_LABEL,
  IDENTITY_DOCUMENT_ACCEPT,
  IDENTITY_DOCUMENT_BYTES_MAX,
  IDENTITY_DOCUMENT_NOTE,
  IDENTITY_DOCUMENT_TOO_LARGE,
  IDENTITY_FULL_NAME_LENGTH_MAX,
  IDENTITY_FULL_NAME_LENGTH_MIN,
  IDENTITY_STATUS_LABEL,
  documentSummary,
  formatBirthDate,
  identityBadgeClass,
  type IdentityDocument,
  type IdentityDocumentKind,
  type IdentityResponse,
} from '../../../lib/identity';
import { useIdentity } from '../api/get-identity';
import { useSubmitIdentity } from '../api/submit-identity';
import { useUploadIdentityDocument } from '../api/upload-document';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Today as `YYYY-MM-DD` in the reader's time zone: no one is born tomorrow. */
function today(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function DocumentList({ documents }: { documents: readonly IdentityDocument[] }) {
  if (documents.length === 0) return <p className="muted small">No documents uploaded yet</p>;
  return (
    <ul className="identity-card__documents" aria-label="Uploaded documents">
      {documents.map((document) => (
        <li key={document.id}>{documentSummary(document)}</li>
      ))}
    </ul>
  );
}

/** The name, birth date and submission time of a pending or verified verification. */
function SubmittedFacts({ identity }: { identity: IdentityResponse }) {
  return (
    <dl className="identity-facts">
      {identity.full_name && (
        <>
          <dt>Legal name</dt>
          <dd>{identity.full_name}</dd>
        </>
      )}
      {identity.date_of_birth && (
        <>
          <dt>Date of birth</dt>
          <dd>{formatBirthDate(identity.date_of_birth)}</dd>
        </>
      )}
      {identity.submitted_at && (
        <>
          <dt>Submitted</dt>
          <dd>{new Date(identity.submitted_at).toLocaleString()}</dd>
        </>
      )}
    </dl>
  );
}

interface UploadProps {
  kind: IdentityDocumentKind;
  uploaded: boolean;
  busy: boolean;
  noteId: string;
  onFile(kind: IdentityDocumentKind, file: File): void;
}

function DocumentUpload({ kind, uploaded, busy, noteId, onFile }: UploadProps) {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    // Cleared, so that picking the same file again (after a refusal) is a change too.
    event.currentTarget.value = '';
    if (file) onFile(kind, file);
  };
  return (
    <div className="identity-upload">
      <label className="field">
        <span>{DOCUMENT_KIND_LABEL[kind]}</span>
        <input
          type="file"
          accept={IDENTITY_DOCUMENT_ACCEPT}
          aria-describedby={noteId}
          disabled={busy}
          onChange={onChange}
        />
      </label>
      {uploaded && <span className="badge badge--up identity-upload__done">Uploaded</span>}
    </div>
  );
}

/** Uploads, the legal name and the date of birth: what a trader sends, first or after a rejection. */
function VerificationForm({ identity }: { identity: IdentityResponse }) {
  const noteId = useId();
  const [fullName, setFullName] = useState(identity.full_name ?? '');
  const [birthDate, setBirthDate] = useState(identity.date_of_birth ?? '');
  const upload = useUploadIdentityDocument();
  const submit = useSubmitIdentity();

  const has = (kind: IdentityDocumentKind) => identity.documents.some((document) => document.kind === kind);
  const documentsReady = identity.missing.length === 0 && DOCUMENT_KINDS.every(has);
  const detailsReady = fullName.trim().length >= IDENTITY_FULL_NAME_LENGTH_MIN && DATE.test(birthDate);
  const ready = documentsReady && detailsReady && !upload.isPending;

  const onFile = async (kind: IdentityDocumentKind, file: File) => {
    if (file.size > IDENTITY_DOCUMENT_BYTES_MAX) {
      toast.error(IDENTITY_DOCUMENT_TOO_LARGE);
      return;
    }
    try {
      await upload.mutateAsync({ kind, file });
      toast.success(`${DOCUMENT_KIND_LABEL[kind]} uploaded`);
    } catch (error) {
      console.error('Document upload failed', error);
      toast.error(errorDetail(error, 'Upload failed'));
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || submit.isPending) return;
    try {
      await submit.mutateAsync({ full_name: fullName.trim(), date_of_birth: birthDate });
      toast.success('Submitted for review');
    } catch (error) {
      console.error('Identity submission failed', error);
      toast.error(errorDetail(error, 'Submission failed'));
    }
  };

  return (
    <form
      className="form identity-card__form"
      aria-label="Identity documents"
      onSubmit={(e) => void onSubmit(e)}
    >
      {identity.missing.length > 0 && (
        <p>
          Still needed:{' '}
          <strong>{identity.missing.map((kind) => DOCUMENT_KIND_LABEL[kind] ?? kind).join(', ')}</strong>
        </p>
      )}
      <div className="identity-card__uploads">
        {DOCUMENT_KINDS.map((kind) => (
          <DocumentUpload
            key={kind}
            kind={kind}
            uploaded={has(kind)}
            busy={upload.isPending}
            noteId={noteId}
            onFile={(k, file) => void onFile(k, file)}
          />
        ))}
      </div>
      <p id={noteId} className="muted small">
        {IDENTITY_DOCUMENT_NOTE}
      </p>
      {upload.isPending && (
        <p className="muted small" role="status">
          Uploading...
        </p>
      )}
      <DocumentList documents={identity.documents} />
      <div className="identity-card__details">
        <label className="field">
          <span>Full legal name</span>
          <input
            autoComplete="name"
            placeholder="As on your photo ID"
            maxLength={IDENTITY_FULL_NAME_LENGTH_MAX}
            value={fullName}
            onChange={(event) => setFullName(event.target.value)}
          />
        </label>
        <label className="field">
          <span>Date of birth</span>
          <input
            type="date"
            autoComplete="bday"
            max={today()}
            value={birthDate}
            onChange={(event) => setBirthDate(event.target.value)}
          />
        </label>
      </div>
      <button type="submit" className="button button--primary" disabled={!ready || submit.isPending}>
        {submit.isPending ? 'Please wait...' : 'Submit for review'}
      </button>
    </form>
  );
}

function VerificationContent({ identity }: { identity: IdentityResponse }) {
  switch (identity.status) {
    case 'verified':
      return (
        <>
          <p className="text-up">Identity verified — withdrawals are open</p>
          <SubmittedFacts identity={identity} />
          <DocumentList documents={identity.documents} />
        </>
      );
    case 'pending':
      return (
        <>
          <p>Your documents are being reviewed. Withdrawals open once an admin approves them.</p>
          <SubmittedFacts identity={identity} />
          <DocumentList documents={identity.documents} />
        </>
      );
    case 'rejected':
      return (
        <>
          <div className="identity-card__rejection">
            <strong>Your verification was rejected</strong>
            <span>Reason: {identity.rejection_reason ?? 'No reason given'}</span>
            <span>Upload your documents again and submit them for review.</span>
          </div>
          <VerificationForm identity={identity} />
        </>
      );
    case 'not_started':
      return (
        <>
          <p className="muted">
            Verify your identity to withdraw real funds: upload a photo ID (passport, national ID card or
            driving licence) and a proof of address (a recent utility bill or bank statement).
          </p>
          <VerificationForm identity={identity} />
        </>
      );
  }
}

/**
 * The dashboard's Verification card (KYC): the status, then what the trader can do about it —
 * upload a photo ID and a proof of address and submit them with their legal name and date of
 * birth, wait for the review, or read why it was rejected and send them again.
 */
export function VerificationCard() {
  const identity = useIdentity();
  const data = identity.data;

  useEffect(() => {
    if (identity.error) console.error('Failed to load identity verification', identity.error);
  }, [identity.error]);

  return (
    <section className="card identity-card" aria-label="Verification">
      <div className="row">
        <h2 className="card-title">Verification</h2>
        {data && (
          <span className={identityBadgeClass(data.status)}>{IDENTITY_STATUS_LABEL[data.status]}</span>
        )}
      </div>
      {data ? (
        <VerificationContent identity={data} />
      ) : identity.isError ? (
        <p className="muted">Could not load your verification status</p>
      ) : (
        <p className="muted">Loading...</p>
      )}
    </section>
  );
}
