import { useEffect, useRef } from 'react';
import { SecurityEventList } from '../../../components/ui/security-event-list';
import { useUserSecurityActivity } from '../api/get-user-security-activity';
import type { AdminUser } from '../api/get-users';
import { useLoadErrorToast } from './use-load-error-toast';

/**
 * One user's security activity in a dialog over the Users tab: the same events, sentences and
 * paging the user sees on their own Security card, for an admin answering "was that me?". A
 * dialog rather than a row under the user's: the users table is wider than a laptop's card and
 * scrolls sideways, which would leave a full-width row's text out of sight.
 */
export function UserSecurityActivity({ user, onClose }: { user: AdminUser; onClose(): void }) {
  const activity = useUserSecurityActivity(user.id);
  useLoadErrorToast(activity.error, 'security activity');
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialogRef.current?.focus();
  }, []);

  const label = `Security activity of ${user.name}`;
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        ref={dialogRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="user-security-activity-title"
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
      >
        <header className="modal__header">
          <h2 id="user-security-activity-title">{label}</h2>
          <button type="button" className="button button--ghost" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </header>
        <div className="modal__body">
          <p className="muted small">{user.email}</p>
          <SecurityEventList label={label} activity={activity} />
        </div>
      </div>
    </div>
  );
}
