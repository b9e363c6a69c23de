import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { formatEventTime } from '../../../lib/security-activity';
import { useSession } from '../../../lib/session/session-context';
import { useEndOtherSession } from '../api/end-other-session';
import { useSessions, type ActiveSession } from '../api/get-sessions';

function SessionItem({
  session,
  busy,
  onEnd,
}: {
  session: ActiveSession;
  busy: boolean;
  onEnd(session: ActiveSession): void;
}) {
  return (
    <li className="security-list__item">
      <div className="security-list__text">
        <span>
          <strong>{session.device}</strong>{' '}
          {session.current && <span className="badge badge--up">This device</span>}
        </span>
        <span className="muted small">
          {session.address ?? 'Unknown address'} · Last seen{' '}
          <time dateTime={session.last_seen_at}>{formatEventTime(session.last_seen_at)}</time> · Signed in{' '}
          <time dateTime={session.signed_in_at}>{formatEventTime(session.signed_in_at)}</time>
        </span>
      </div>
      <button
        type="button"
        className="button button--outline button--small"
        disabled={busy}
        onClick={() => onEnd(session)}
      >
        End session
      </button>
    </li>
  );
}

/**
 * The user's sessions that can still be renewed, this browser's marked "This device", each with
 * "End session". Ending another device's session signs that device out at its next request; ending
 * this one is a logout (the cookies go too) and leads to /login, like the header's Logout.
 */
export function ActiveSessions() {
  const sessions = useSessions();
  const endOther = useEndOtherSession();
  const { logout } = useSession();
  const navigate = useNavigate();
  const [ending, setEnding] = useState<string | null>(null);

  const onEnd = async (session: ActiveSession) => {
    setEnding(session.id);
    if (session.current) {
      await logout();
      void navigate('/login');
      return;
    }
    try {
      await endOther.mutateAsync(session.id);
      toast.success('Session ended');
    } catch (error) {
      console.error('Ending a session failed', error);
      toast.error(errorDetail(error, 'Failed to end the session'));
    } finally {
      setEnding(null);
    }
  };

  if (sessions.isPending) return <p className="muted small">Loading...</p>;
  if (!sessions.data) return <p className="muted small">Sessions could not be loaded</p>;
  return (
    <ul className="security-list" aria-label="Active sessions">
      {sessions.data.map((session) => (
        <SessionItem
          key={session.id}
          session={session}
          busy={ending !== null}
          onEnd={(chosen) => void onEnd(chosen)}
        />
      ))}
    </ul>
  );
}
