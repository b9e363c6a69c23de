import { useSession } from '../../../lib/session/session-context';
import { ActiveSessions } from './active-sessions';
import { ChangePasswordForm } from './change-password-form';
import { LogOutEverywhere } from './log-out-everywhere';
import { SecurityActivity } from './security-activity';
import { TwoFactorSwitch } from './two-factor-switch';

/**
 * The account's security on the dashboard: two-factor sign-in on and off, the password, the
 * sessions still signed in (each can be ended, or all at once), and the recent security activity.
 * Turning two-factor off and changing the password each ask for the password again (a step-up),
 * and turning it on does once the sign-in is more than 5 minutes old, so a stolen session alone
 * cannot take the account over.
 */
export function SecurityCard() {
  const { user } = useSession();
  const enabled = user?.twofa_enabled ?? false;

  return (
    <section className="card security-card">
      <h2 className="card-title">Security</h2>
      <p>
        Two-factor authentication:{' '}
        <strong className={enabled ? 'text-up' : 'text-down'}>{enabled ? 'ON' : 'OFF'}</strong>
      </p>
      <TwoFactorSwitch enabled={enabled} />
      <h3 className="card-subtitle">Password</h3>
      <ChangePasswordForm twoFactorEnabled={enabled} />
      <h3 className="card-subtitle">Active sessions</h3>
      <ActiveSessions />
      <LogOutEverywhere />
      <h3 className="card-subtitle">Recent security activity</h3>
      <SecurityActivity />
    </section>
  );
}
