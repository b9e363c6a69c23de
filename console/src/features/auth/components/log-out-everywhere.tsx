import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';

/**
 * Ends every session of the user, this device's too, for a trader who suspects someone else is
 * signed in. Like the header's Logout it ends at /login, which leads to /auth. On a failure the
 * session stays: the other devices may still be in, and the trader should know it.
 */
export function LogOutEverywhere() {
  const { logoutEverywhere } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const onClick = async () => {
    setBusy(true);
    try {
      await logoutEverywhere();
    } catch (error) {
      console.error('Logging out everywhere failed', error);
      toast.error(errorDetail(error, 'Failed to log out everywhere'));
      setBusy(false);
      return;
    }
    void navigate('/login');
  };

  return (
    <div>
      <p className="muted small">Signs you out on every device, this one included.</p>
      <button type="button" className="button button--outline" disabled={busy} onClick={() => void onClick()}>
        {busy ? 'Please wait...' : 'Log out everywhere'}
      </button>
    </div>
  );
}
