import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { PaymentRequest } from '@updown/schemas/api';
import { toast } from 'sonner';
import { IDENTITY_STATUS_SHORT_LABEL, identityBadgeClass, type IdentityStatus } from '../../../lib/identity';
import type { DecideRequestInput, RequestAction } from '../api/decide-deposit';
import { formatDateTime, formatDollars, shortUserId } from './admin-format';
import { useBusyKeys } from './use-busy-keys';
import { useLoadErrorToast } from './use-load-error-toast';

/** What differs between the deposit and the withdrawal tables. */
export interface PaymentRequestKind {
  /** 'Deposit' or 'Withdrawal': the toasts are built from it and the action. */
  noun: string;
  title: string;
  emptyText: string;
  useList: () => UseQueryResult<PaymentRequest[]>;
  useDecide: () => UseMutationResult<PaymentRequest, Error, DecideRequestInput>;
  /** Adds an Identity column: the trader's verification status, which real withdrawals wait for. */
  showIdentity?: boolean;
}

const PAST_TENSE: Record<RequestAction, string> = { approve: 'approved', reject: 'rejected' };
const ACTION_LABEL: Record<RequestAction, string> = { approve: 'Approve', reject: 'Reject' };

export function decideConfirmText(noun: string, action: RequestAction, amount: number): string {
  return `${ACTION_LABEL[action]} this ${noun.toLowerCase()} of ${formatDollars(amount)}?`;
}

/** Pending is waiting on an admin; approved is done; anything else is shown as trouble (spec §4). */
function statusBadgeClass(status: string): string {
  if (status === 'pending') return 'badge admin-badge--pending';
  if (status === 'approved') return 'badge badge--up';
  return 'badge badge--down';
}

/** The trader's verification status; `—` when the server did not say. */
function IdentityCell({ status }: { status: IdentityStatus | undefined }) {
  if (!status) return <td className="muted">—</td>;
  return (
    <td>
      <span className={identityBadgeClass(status)}>{IDENTITY_STATUS_SHORT_LABEL[status]}</span>
    </td>
  );
}

interface RequestRowProps {
  request: PaymentRequest;
  showIdentity: boolean;
  /** A decision on this request is in flight. */
  busy: boolean;
  onDecide: (action: RequestAction) => void;
}

function RequestRow({ request, showIdentity, busy, onDecide }: RequestRowProps) {
  return (
    <tr>
      <td className="admin-table__mono" title={request.user_id}>
        {shortUserId(request.user_id)}
      </td>
      {showIdentity && <IdentityCell status={request.identity_status} />}
      <td className="admin-table__strong">{formatDollars(request.amount)}</td>
      <td>
        {/* The spec defaults a missing account type to real; the schema says it is always sent. */}
        <span className="badge badge--neutral capitalize">{request.account_type ?? 'real'}</span>
      </td>
      <td>
        <span className={`${statusBadgeClass(request.status)} capitalize`}>{request.status}</span>
      </td>
      <td>{formatDateTime(request.created_at)}</td>
      <td>
        {request.status === 'pending' && (
          <div className="admin-actions">
            {(['approve', 'reject'] as const).map((action) => (
              <button
                key={action}
                type="button"
                className={`button admin-button--small ${
                  action === 'approve' ? 'admin-button--approve' : 'admin-button--danger'
                }`}
                disabled={busy}
                onClick={() => onDecide(action)}
              >
                {ACTION_LABEL[action]}
              </button>
            ))}
          </div>
        )}
      </td>
    </tr>
  );
}

/** Deposit or withdrawal requests, newest first; only pending rows can be decided. */
export function PaymentRequestsTab({ kind }: { kind: PaymentRequestKind }) {
  const list = kind.useList();
  const decide = kind.useDecide();
  const { run, isBusy } = useBusyKeys();
  useLoadErrorToast(list.error, kind.title.toLowerCase());

  const onDecide = (request: PaymentRequest, action: RequestAction) =>
    run(request.id, async () => {
      if (!window.confirm(decideConfirmText(kind.noun, action, request.amount))) return;
      try {
        await decide.mutateAsync({ id: request.id, action });
        toast.success(`${kind.noun} ${PAST_TENSE[action]} successfully`);
      } catch (error) {
        console.error(`Failed to ${action} ${kind.noun.toLowerCase()}`, error);
        toast.error(`Failed to ${action} ${kind.noun.toLowerCase()}`);
      }
    });

  const rows = list.data ?? [];
  return (
    <section className="card admin-card">
      <h2 className="card-title">{kind.title}</h2>
      {list.isPending ? (
        <p className="muted">Loading...</p>
      ) : rows.length === 0 ? (
        <p className="muted">{kind.emptyText}</p>
      ) : (
        <div className="table-scroll">
          <table className="table admin-table">
            <thead>
              <tr>
                <th>User</th>
                {kind.showIdentity && <th>Identity</th>}
                <th>Amount</th>
                <th>Account</th>
                <th>Status</th>
                <th>Date</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((request) => (
                <RequestRow
                  key={request.id}
                  request={request}
                  showIdentity={kind.showIdentity ?? false}
                  busy={isBusy(request.id)}
                  onDecide={(action) => void onDecide(request, action)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
