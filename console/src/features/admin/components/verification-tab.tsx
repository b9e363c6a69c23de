import { useState, type FormEvent } from 'react';
import {
  IDENTITY_REJECTION_REASON_LENGTH_MAX,
  IDENTITY_STATUS_SHORT_LABEL,
  duplicateSignalText,
  formatBirthDate,
  identityBadgeClass,
  type DuplicateSignal,
  type VerificationDetail,
  type VerificationHistoryEntry,
  type VerificationsFilter,
  type VerificationSummary,
} from '../../../lib/identity';
import { useDecideVerification } from '../api/decide-verification';
import { useVerification, useVerifications } from '../api/get-verifications';
import { formatDateTime } from './admin-format';
import { IdentityDocumentView } from './identity-document-view';
import { saveWithToast } from './save-with-toast';
import { useBusyKeys } from './use-busy-keys';
import { useLoadErrorToast } from './use-load-error-toast';

const FILTERS: readonly { id: VerificationsFilter; label: string; empty: string }[] = [
  { id: 'pending', label: 'Pending', empty: 'No verifications waiting for review' },
  { id: 'verified', label: 'Verified', empty: 'No verified submissions' },
  { id: 'rejected', label: 'Rejected', empty: 'No rejected submissions' },
  { id: 'all', label: 'All', empty: 'No submissions yet' },
];

const COLUMNS = [
  'Email',
  'Account name',
  'Legal name',
  'Date of birth',
  'Submitted',
  'Status',
  'Duplicates',
  'Actions',
] as const;

function StatusBadge({ status }: { status: VerificationSummary['status'] }) {
  return <span className={identityBadgeClass(status)}>{IDENTITY_STATUS_SHORT_LABEL[status]}</span>;
}

/** Other accounts that may be the same person: the badge, then who and why. */
function DuplicateSignals({ signals }: { signals: readonly DuplicateSignal[] }) {
  if (signals.length === 0) return <span className="muted">—</span>;
  return (
    <div className="admin-verification__duplicates">
      <span className="badge badge--down">Possible duplicate</span>
      <ul aria-label="Duplicate signals">
        {signals.map((signal) => (
          <li key={`${signal.user_id}-${signal.reason}`}>{duplicateSignalText(signal)}</li>
        ))}
      </ul>
    </div>
  );
}

interface RowProps {
  verification: VerificationSummary;
  selected: boolean;
  onSelect(): void;
}

function VerificationRow({ verification, selected, onSelect }: RowProps) {
  return (
    <tr className={selected ? 'admin-verification__row--selected' : undefined}>
      <td className="admin-table__strong">{verification.email}</td>
      <td>{verification.account_name}</td>
      <td>{verification.full_name}</td>
      <td>{formatBirthDate(verification.date_of_birth)}</td>
      <td>{formatDateTime(verification.submitted_at)}</td>
      <td>
        <StatusBadge status={verification.status} />
      </td>
      <td className="admin-verification__duplicates-cell">
        <DuplicateSignals signals={verification.duplicate_signals} />
      </td>
      <td>
        <button
          type="button"
          className="button button--outline admin-button--small"
          aria-expanded={selected}
          aria-controls="admin-verification-review"
          onClick={onSelect}
        >
          Review
        </button>
      </td>
    </tr>
  );
}

/** Approve, or reject with a reason the trader will read (required, at most 500 characters). */
function Decision({ id, onDecided }: { id: string; onDecided(): void }) {
  const [reason, setReason] = useState('');
  const decide = useDecideVerification();
  const { run, isBusy } = useBusyKeys();
  const busy = isBusy('decide');

  const onApprove = () =>
    void run('decide', () =>
      saveWithToast(
        'approve the verification',
        'Verification approved',
        () => decide.mutateAsync({ id, action: 'approve' }),
        onDecided,
      ),
    );

  const onReject = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (text === '') return;
    void run('decide', () =>
      saveWithToast(
        'reject the verification',
        'Verification rejected',
        () => decide.mutateAsync({ id, action: 'reject', reason: text }),
        onDecided,
      ),
    );
  };

  return (
    <div className="admin-verification__decision">
      <button type="button" className="button admin-button--approve" disabled={busy} onClick={onApprove}>
        Approve
      </button>
      <form className="admin-verification__reject" aria-label="Reject verification" onSubmit={onReject}>
        <label className="field">
          <span>Rejection reason</span>
          <textarea
            rows={3}
            required
            maxLength={IDENTITY_REJECTION_REASON_LENGTH_MAX}
            placeholder="What the trader must fix; they will read it"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </label>
        <button type="submit" className="button admin-button--danger" disabled={busy || reason.trim() === ''}>
          Reject
        </button>
      </form>
    </div>
  );
}

function History({ history }: { history: readonly VerificationHistoryEntry[] }) {
  if (history.length === 0) return <p className="muted">No earlier submissions</p>;
  return (
    <div className="table-scroll">
      <table className="table admin-table" aria-label="Decision history">
        <thead>
          <tr>
            <th>Submitted</th>
            <th>Status</th>
            <th>Decided</th>
            <th>By</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {history.map((entry) => (
            <tr key={entry.id}>
              <td>{formatDateTime(entry.submitted_at)}</td>
              <td>
                <StatusBadge status={entry.status} />
              </td>
              <td>{entry.decided_at ? formatDateTime(entry.decided_at) : '—'}</td>
              <td>{entry.decided_by_email ?? '—'}</td>
              <td className="admin-verification__reason">{entry.rejection_reason ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Facts({ verification }: { verification: VerificationDetail }) {
  return (
    <dl className="identity-facts">
      <dt>Account name</dt>
      <dd>{verification.account_name}</dd>
      <dt>Legal name</dt>
      <dd>{verification.full_name}</dd>
      <dt>Date of birth</dt>
      <dd>{formatBirthDate(verification.date_of_birth)}</dd>
      <dt>Submitted</dt>
      <dd>{formatDateTime(verification.submitted_at)}</dd>
      <dt>Status</dt>
      <dd>
        <StatusBadge status={verification.status} />
        {verification.decided_at && (
          <span className="muted small">
            {' '}
            {formatDateTime(verification.decided_at)}
            {verification.decided_by_email && ` by ${verification.decided_by_email}`}
          </span>
        )}
      </dd>
      {verification.rejection_reason && (
        <>
          <dt>Reason</dt>
          <dd>{verification.rejection_reason}</dd>
        </>
      )}
    </dl>
  );
}

/** One submission: who, the documents inline, the decision while pending, and the trader's history. */
function VerificationReview({ id, onClose }: { id: string; onClose(): void }) {
  const detail = useVerification(id);
  useLoadErrorToast(detail.error, 'verification');
  const verification = detail.data;

  return (
    <section
      id="admin-verification-review"
      className="card admin-card admin-verification"
      aria-label="Verification review"
    >
      <div className="row">
        <h2 className="card-title">
          {verification ? `Verification of ${verification.email}` : 'Verification'}
        </h2>
        <button type="button" className="button button--ghost admin-button--small" onClick={onClose}>
          Close
        </button>
      </div>
      {!verification ? (
        <p className="muted">{detail.isError ? 'Could not load this verification' : 'Loading...'}</p>
      ) : (
        <>
          <Facts verification={verification} />
          {verification.duplicate_signals.length > 0 && (
            <DuplicateSignals signals={verification.duplicate_signals} />
          )}
          <h3 className="card-subtitle">Documents</h3>
          {verification.documents.length === 0 ? (
            <p className="muted">No documents</p>
          ) : (
            <div className="admin-verification__documents">
              {verification.documents.map((document) => (
                <IdentityDocumentView key={document.id} document={document} />
              ))}
            </div>
          )}
          {verification.status === 'pending' && (
            <Decision key={verification.id} id={verification.id} onDecided={onClose} />
          )}
          <h3 className="card-subtitle">History</h3>
          <History history={verification.history} />
        </>
      )}
    </section>
  );
}

/**
 * Identity verifications: the queue of pending submissions (oldest first) or the decided ones,
 * with possible duplicate accounts flagged; Review opens one with its documents to approve or
 * reject. A decision another admin made first is refused with the server's reason, and the queue
 * reloads either way.
 */
export function VerificationTab() {
  const [filter, setFilter] = useState<VerificationsFilter>('pending');
  const [selected, setSelected] = useState<string | null>(null);
  const list = useVerifications(filter);
  useLoadErrorToast(list.error, 'verifications');

  const rows = list.data ?? [];
  const empty = FILTERS.find((option) => option.id === filter)?.empty;
  return (
    <>
      <section className="card admin-card">
        <h2 className="card-title">Identity Verification</h2>
        <div className="segmented admin-disputes__filter" role="group" aria-label="Status">
          {FILTERS.map((option) => (
            <button
              key={option.id}
              type="button"
              aria-pressed={option.id === filter}
              className={option.id === filter ? 'segment segment--active' : 'segment'}
              onClick={() => {
                setFilter(option.id);
                setSelected(null);
              }}
            >
              {option.label}
            </button>
          ))}
        </div>
        {list.isPending ? (
          <p className="muted">Loading...</p>
        ) : rows.length === 0 ? (
          <p className="muted">{empty}</p>
        ) : (
          <div className="table-scroll">
            <table className="table admin-table">
              <thead>
                <tr>
                  {COLUMNS.map((column) => (
                    <th key={column}>{column}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((verification) => (
                  <VerificationRow
                    key={verification.id}
                    verification={verification}
                    selected={verification.id === selected}
                    onSelect={() =>
                      setSelected((open) => (open === verification.id ? null : verification.id))
                    }
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {selected && <VerificationReview key={selected} id={selected} onClose={() => setSelected(null)} />}
    </>
  );
}
