import { useState, type FormEvent } from 'react';
import { StepList } from '../../../components/ui/step-list';
import { errorDetail } from '../../../lib/api-client';
import { DISPUTE_TEXT_CHARS_MAX, type Dispute } from '../../../lib/disputes';
import { useFileDispute } from '../api/file-dispute';

/** What the reason must be before it is sent; null when it may go. */
export function reasonProblem(reason: string): string | null {
  if (reason.trim() === '') return 'Please enter a reason';
  if (reason.length > DISPUTE_TEXT_CHARS_MAX)
    return `The reason may have at most ${DISPUTE_TEXT_CHARS_MAX} characters`;
  return null;
}

/** The server's replay, shown the moment the dispute is filed: it decides nothing, an admin does. */
export function ReplayResult({ dispute }: { dispute: Dispute }) {
  const { replay } = dispute;
  const confirmed = replay.verdict === 'confirmed';
  return (
    <div className="dispute-result" role="status">
      <p className="dispute-result__verdict">
        <span className={confirmed ? 'badge badge--up' : 'badge badge--down'}>
          {confirmed ? 'settlement confirmed' : 'mismatch found'}
        </span>
      </p>
      <p>{replay.summary}</p>
      <StepList steps={replay.steps} label="Replay steps" />
      <p className="muted small">Your dispute is open until an admin resolves it.</p>
    </div>
  );
}

/** The reason (at most 500 characters, with a counter) and Submit; then the replay's answer. */
export function DisputeForm({ tradeId, onCancel }: { tradeId: string; onCancel(): void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [filed, setFiled] = useState<Dispute | null>(null);
  const file = useFileDispute();

  if (filed) return <ReplayResult dispute={filed} />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (file.isPending) return;
    const invalid = reasonProblem(reason);
    setProblem(invalid);
    if (invalid) return;
    try {
      setFiled(await file.mutateAsync({ tradeId, reason: reason.trim() }));
    } catch (error) {
      console.error('Failed to file the dispute', error);
      setProblem(errorDetail(error, 'Failed to file the dispute'));
    }
  };

  return (
    <form className="form dispute-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <label className="field">
        <span>Reason</span>
        <textarea
          value={reason}
          maxLength={DISPUTE_TEXT_CHARS_MAX}
          rows={3}
          aria-describedby="dispute-reason-count"
          onChange={(event) => setReason(event.target.value)}
        />
      </label>
      <span id="dispute-reason-count" className="muted small dispute-form__count">
        {reason.length}/{DISPUTE_TEXT_CHARS_MAX}
      </span>
      {problem && (
        <p className="text-down" role="alert">
          {problem}
        </p>
      )}
      <div className="row">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={file.isPending}>
          {file.isPending ? 'Submitting...' : 'Submit'}
        </button>
      </div>
    </form>
  );
}
