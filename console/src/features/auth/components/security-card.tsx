import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { useSetTwoFactor, useStartTwoFactorSetup, type TwoFactorSetup } from '../api/two-factor-settings';
import { ChangePasswordForm } from './change-password-form';
import { LogOutEverywhere } from './log-out-everywhere';
import { CodeField } from './code-field';
import { CODE_LENGTH } from './two-factor-page';

function CodeForm({
  submitLabel,
  onSubmit,
  busy,
}: {
  submitLabel: string;
  busy: boolean;
  onSubmit(code: string): Promise<boolean>;
}) {
  const [code, setCode] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      toast.error('Please enter a valid 6-digit code');
      return;
    }
    if (await onSubmit(code)) setCode('');
  };
  return (
    <form className="form security-card__form" onSubmit={(event) => void submit(event)}>
      <CodeField label="Verification code" code={code} onCode={setCode} />
      <button type="submit" className="button button--primary" disabled={busy || code.length !== CODE_LENGTH}>
        {busy ? 'Please wait...' : submitLabel}
      </button>
    </form>
  );
}

/**
 * Turns two-factor sign-in on (scan the QR code, confirm with a first code) and off (a current
 * code), so traders can enable what the admin's user table reports; changes the password; and
 * signs the user out on every device.
 */
export function SecurityCard() {
  const { user } = useSession();
  const enabled = user?.twofa_enabled ?? false;
  const start = useStartTwoFactorSetup();
  const change = useSetTwoFactor(!enabled);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);

  const onStart = async () => {
    try {
      setSetup(await start.mutateAsync());
    } catch (error) {
      console.error('2FA setup failed', error);
      toast.error(errorDetail(error, 'Failed to start 2FA setup'));
    }
  };

  const onCode = async (code: string) => {
    try {
      await change.mutateAsync(code);
      toast.success(enabled ? '2FA disabled' : '2FA enabled');
      setSetup(null);
      return true;
    } catch (error) {
      console.error('Changing 2FA failed', error);
      toast.error(errorDetail(error, 'Verification failed'));
      return false;
    }
  };

  return (
    <section className="card security-card">
      <h2 className="card-title">Security</h2>
      <p>
        Two-factor authentication:{' '}
        <strong className={enabled ? 'text-up' : 'text-down'}>{enabled ? 'ON' : 'OFF'}</strong>
      </p>
      {enabled ? (
        <>
          <p className="muted small">Enter a current code from your authenticator app to turn it off.</p>
          <CodeForm submitLabel="Turn off 2FA" busy={change.isPending} onSubmit={onCode} />
        </>
      ) : setup ? (
        <div className="security-card__setup">
          <img
            className="security-card__qr"
            src={setup.qr_code}
            alt="Scan this QR code with your authenticator app"
            width={180}
            height={180}
          />
          <div>
            <p className="muted small">Scan the code, or enter this secret key by hand:</p>
            <code className="security-card__secret" aria-label="Secret key">
              {setup.secret}
            </code>
            <CodeForm submitLabel="Turn on 2FA" busy={change.isPending} onSubmit={onCode} />
          </div>
        </div>
      ) : (
        <>
          <p className="muted small">
            Protect your account with a code from an authenticator app at every sign-in.
          </p>
          <button
            type="button"
            className="button button--primary"
            disabled={start.isPending}
            onClick={() => void onStart()}
          >
            {start.isPending ? 'Please wait...' : 'Enable 2FA'}
          </button>
        </>
      )}
      <h3 className="card-subtitle">Password</h3>
      <ChangePasswordForm />
      <h3 className="card-subtitle">Sessions</h3>
      <LogOutEverywhere />
    </section>
  );
}
