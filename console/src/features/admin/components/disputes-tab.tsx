import { useState } from 'react';
import { toast } from 'sonner';
import { StepList } from '../../../components/ui/step-list';
import { errorDetail } from '../../../lib/api-client';
import {
  DISPUTE_STATUSES,
  DISPUTE_TEXT_CHARS_MAX,
  disputeBadgeClass,
  type AdminDispute,
  type DisputeStatus,
} from '../../../lib/disputes';
import { useAdminDisputes, type AdminDisputePage } from '../api/get-admin-disputes';
import { useResolveDispute, type DisputeDecision } from '../api/resolve-dispute';
import { formatDateTime, formatSignedDollars, shortTradeId } from './admin-format';
import { useBusyKeys } from './use-busy-keys';
import { useLoadErrorToast } from './use-load-error-toast';

const STATUS_LABEL: Record<DisputeStatus, string> = {
  open: 'Open',
  confirmed: 'Confirmed',
  corrected: 'Corrected',
};
const EMPTY_TEXT: Record<DisputeStatus, string> = {
  open: 'No open disputes',
  confirmed: 'No confirmed disputes',
  corrected: 'No corrected disputes',
};
/** The longest email address there is (RFC 5321); the server refuses longer filters. */
const TRADER_FILTER_CHARS_MAX = 254;
const DECIDED_TOAST: Record<DisputeDecision, string> = {
  confirm: 'Dispute confirmed',
  correct: 'Dispute corrected',
};
const COLUMNS = 7;

function money(amount: number | null): string {
  return amount === null ? '—' : formatSignedDollars(amount);
}

/** The replay's summary, recorded against replayed, and every step: what the decision rests on. */
function Evidence({ dispute }: { dispute: AdminDispute }) {
  const { replay } = dispute;
  return (
    <div className="admin-disputes__evidence">
      <p>{replay.summary}</p>
      <p className="muted small">
        Recorded: {replay.recorded.outcome} {money(replay.recorded.pnl)} · Replayed:{' '}
        {replay.replayed.outcome ?? '—'} {money(replay.replayed.pnl)}
      </p>
      <StepList steps={replay.steps} label="Replay steps" />
    </div>
  );
}

interface DecisionProps {
  dispute: AdminDispute;
  busy: boolean;
  onDecide(decision: DisputeDecision, note: string): void;
}

/** A note and Confirm / Correct; Correct only when the replay found a mismatch to correct. */
function Decision({ dispute, busy, onDecide }: DecisionProps) {
  const [note, setNote] = useState('');
  const mismatch = dispute.replay.verdict === 'mismatch';
  return (
    <div className="admin-actions admin-disputes__decision">
      <input
        aria-label="Note"
        placeholder="Note"
        value={note}
        maxLength={DISPUTE_TEXT_CHARS_MAX}
        onChange={(event) => setNote(event.target.value)}
      />
      <button
        type="button"
        className="button admin-button--small admin-button--approve"
        disabled={busy}
        onClick={() => onDecide('confirm', note)}
      >
        Confirm
      </button>
      <button
        type="button"
        className="button admin-button--small admin-button--danger"
        disabled={busy || !mismatch}
        title={mismatch ? undefined : 'The replay found nothing to correct'}
        onClick={() => onDecide('correct', note)}
      >
        Correct
      </button>
    </div>
  );
}

function Resolution({ dispute }: { dispute: AdminDispute }) {
  return (
    <div className="admin-disputes__resolution">
      <span className={`${disputeBadgeClass(dispute.status)} capitalize`}>{dispute.status}</span>
      {dispute.status === 'corrected' && <span> {money(dispute.correction)}</span>}
      {dispute.resolution_note && <span className="muted"> {dispute.resolution_note}</span>}
      {dispute.resolved_by && <span className="muted small"> by {dispute.resolved_by}</span>}
    </div>
  );
}

interface RowProps extends Omit<DecisionProps, 'dispute'> {
  dispute: AdminDispute;
}

function DisputeRow({ dispute, busy, onDecide }: RowProps) {
  const [expanded, setExpanded] = useState(false);
  const confirmed = dispute.replay.verdict === 'confirmed';
  return (
    <>
      <tr>
        <td className="admin-table__mono" title={dispute.trade_id}>
          {shortTradeId(dispute.trade_id)}
        </td>
        <td>{dispute.pair}</td>
        <td>{dispute.user_email ?? '—'}</td>
        <td className="admin-disputes__reason">{dispute.reason}</td>
        <td>{formatDateTime(dispute.created_at)}</td>
        <td>
          <div className="admin-disputes__replay">
            <span className={confirmed ? 'badge badge--up' : 'badge badge--down'}>
              {dispute.replay.verdict}
            </span>
            <button
              type="button"
              className="link-button"
              aria-expanded={expanded}
              onClick={() => setExpanded((shown) => !shown)}
            >
              {expanded ? 'Hide steps' : 'Show steps'}
            </button>
          </div>
        </td>
        <td>
          {dispute.status === 'open' ? (
            <Decision dispute={dispute} busy={busy} onDecide={onDecide} />
          ) : (
            <Resolution dispute={dispute} />
          )}
        </td>
      </tr>
      {expanded && (
        <tr className="admin-disputes__evidence-row">
          <td colSpan={COLUMNS}>
            <Evidence dispute={dispute} />
          </td>
        </tr>
      )}
    </>
  );
}

/** Narrows the list to one trader, by email or user id; applied on Filter (or Enter), not per keystroke. */
function TraderFilter({ applied, onApply }: { applied: string; onApply(trader: string): void }) {
  const [draft, setDraft] = useState(applied);
  return (
    <form
      className="admin-actions admin-disputes__trader"
      role="search"
      aria-label="Filter by trader"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(draft.trim());
      }}
    >
      <input
        aria-label="Trader"
        placeholder="Trader email or user id"
        value={draft}
        maxLength={TRADER_FILTER_CHARS_MAX}
        onChange={(event) => setDraft(event.target.value)}
      />
      <button type="submit" className="button admin-button--small">
        Filter
      </button>
      {applied !== '' && (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setDraft('');
            onApply('');
          }}
        >
          Clear
        </button>
      )}
    </form>
  );
}

/** The disputes of every page loaded so far, in the server's order (newest first). */
function disputesOf(pages: readonly AdminDisputePage[] | undefined): AdminDispute[] {
  return pages?.flatMap((page) => page.disputes) ?? [];
}

/**
 * Traders' disputes by status and, optionally, one trader, with the server's replay as evidence;
 * open ones are decided here. The server sends a page at a time: "Load more" asks for the next one
 * with its cursor, so every dispute is reachable however many one trader files.
 */
export function DisputesTab() {
  const [status, setStatus] = useState<DisputeStatus>('open');
  const [trader, setTrader] = useState('');
  const list = useAdminDisputes({ status, trader: trader === '' ? undefined : trader });
  const resolve = useResolveDispute();
  const { run, isBusy } = useBusyKeys();
  useLoadErrorToast(list.error, 'disputes');

  const onDecide = (dispute: AdminDispute, decision: DisputeDecision, note: string) =>
    run(dispute.id, async () => {
      if (note.trim() === '') {
        toast.error('Please enter a note');
        return;
      }
      try {
        await resolve.mutateAsync({ id: dispute.id, decision, note: note.trim() });
        toast.success(DECIDED_TOAST[decision]);
      } catch (error) {
        console.error(`Failed to ${decision} the dispute`, error);
        toast.error(errorDetail(error, `Failed to ${decision} the dispute`));
      }
    });

  const rows = disputesOf(list.data?.pages);
  return (
    <section className="card admin-card">
      <h2 className="card-title">Disputes</h2>
      <div className="admin-disputes__filters">
        <div className="segmented admin-disputes__filter" role="group" aria-label="Status">
          {DISPUTE_STATUSES.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={option === status}
              className={option === status ? 'segment segment--active' : 'segment'}
              onClick={() => setStatus(option)}
            >
              {STATUS_LABEL[option]}
            </button>
          ))}
        </div>
        <TraderFilter applied={trader} onApply={setTrader} />
      </div>
      {list.isPending ? (
        <p className="muted">Loading...</p>
      ) : rows.length === 0 ? (
        <p className="muted">
          {list.isError ? errorDetail(list.error, EMPTY_TEXT[status]) : EMPTY_TEXT[status]}
        </p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table admin-table">
              <thead>
                <tr>
                  <th>Trade</th>
                  <th>Pair</th>
                  <th>Trader</th>
                  <th>Reason</th>
                  <th>Created</th>
                  <th>Replay</th>
                  <th>{status === 'open' ? 'Decision' : 'Resolution'}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((dispute) => (
                  <DisputeRow
                    key={dispute.id}
                    dispute={dispute}
                    busy={isBusy(dispute.id)}
                    onDecide={(decision, note) => void onDecide(dispute, decision, note)}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <div className="admin-disputes__more">
            <span className="muted small">
              {rows.length} {rows.length === 1 ? 'dispute' : 'disputes'} shown
              {list.hasNextPage ? '; older ones follow' : ''}
            </span>
            {list.hasNextPage && (
              <button
                type="button"
                className="button button--outline button--small"
                disabled={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
