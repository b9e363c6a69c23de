import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, errorDetail } from '../../../lib/api-client';
import {
  useSetTwoFactor,
  useStartTwoFactorSetup,
  type TwoFactorChange,
  type TwoFactorSetup,
} from '../api/two-factor-settings';
import { CodeField } from './code-field';
import { PasswordField } from './password-field';
import { CODE_LENGTH } from './two-factor-page';

/** The server's answer when a sensitive action comes without a step-up from the last 5 minutes. */
const STEP_UP_REQUIRED = 'STEP_UP_REQUIRED';

/**
 * A 6-digit code, with the password above it when `askPassword`. The fields are cleared only when
 * the change went through, so a refusal leaves what was typed to correct.
 */
function CodeForm({
  submitLabel,
  busy,
  askPassword,
  onSubmit,
}: {
  submitLabel: string;
  busy: boolean;
  askPassword: boolean;
  onSubmit(change: TwoFactorChange): Promise<boolean>;
}) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      toast.error('Please enter a valid 6-digit code');
      return;
    }
    if (await onSubmit(askPassword ? { token: code, password } : { token: code })) {
      setCode('');
      setPassword('');
    }
  };
  const complete = code.length === CODE_LENGTH && (!askPassword || password !== '');
  return (
    <form className="form security-card__form" onSubmit={(event) => void submit(event)}>
      {askPassword && <PasswordField value={password} onChange={setPassword} />}
      <CodeField label="Verification code" code={code} onCode={setCode} />
      <button type="submit" className="button button--primary" disabled={busy || !complete}>
        {busy ? 'Please wait...' : submitLabel}
      </button>
    </form>
  );
}

/** Whether the server refused a sensitive action for want of a step-up from the last 5 minutes. */
function needsStepUp(error: unknown): boolean {
  return error instanceof ApiError && error.code === STEP_UP_REQUIRED;
}

/**
 * An account made by Google sign-in has no password it knows, so its only step-up is a fresh
 * sign-in. The API does not say which accounts those are, so everyone asked for a password reads
 * the way out.
 */
function GoogleAccountNote() {
  return (
    <p className="muted small">
      Signed up with Google? Your account has no password to confirm: log out, sign in again with Google, and
      choose Enable 2FA within 5 minutes.
    </p>
  );
}

/**
 * The password, asked only when the session's last step-up (its sign-in, or an earlier password)
 * is more than 5 minutes old: the setup sent with it is its own step-up.
 */
function PasswordStep({ onSetup, onCancel }: { onSetup(setup: TwoFactorSetup): void; onCancel(): void }) {
  const start = useStartTwoFactorSetup();
  const [password, setPassword] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      onSetup(await start.mutateAsync(password));
    } catch (error) {
      console.error('2FA setup failed', error);
      toast.error(errorDetail(error, 'Failed to start 2FA setup'));
    }
  };

  return (
    <form className="form security-card__form" onSubmit={(event) => void submit(event)}>
      <p className="muted small">
        Your sign-in is more than 5 minutes old. Confirm your password to set up two-factor authentication.
      </p>
      <PasswordField value={password} onChange={setPassword} />
      <GoogleAccountNote />
      <div className="admin-actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={start.isPending || password === ''}
        >
          {start.isPending ? 'Please wait...' : 'Continue'}
        </button>
        <button type="button" className="button button--outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * "Enable 2FA" asks the server for a setup with no proof first: a session that signed in within 5
 * minutes needs none, and that is the only way an account made by Google sign-in can turn 2FA on.
 * Only the server's `STEP_UP_REQUIRED` brings up the password step.
 */
function EnableButton({ onSetup, onStepUp }: { onSetup(setup: TwoFactorSetup): void; onStepUp(): void }) {
  const start = useStartTwoFactorSetup();
  const begin = async () => {
    try {
      onSetup(await start.mutateAsync(undefined));
    } catch (error) {
      if (needsStepUp(error)) {
        onStepUp();
        return;
      }
      console.error('2FA setup failed', error);
      toast.error(errorDetail(error, 'Failed to start 2FA setup'));
    }
  };
  return (
    <>
      <p className="muted small">
        Protect your account with a code from an authenticator app at every sign-in.
      </p>
      <button
        type="button"
        className="button button--primary"
        disabled={start.isPending}
        onClick={() => void begin()}
      >
        {start.isPending ? 'Please wait...' : 'Enable 2FA'}
      </button>
    </>
  );
}

type Phase = { step: 'idle' } | { step: 'password' } | { step: 'scan'; setup: TwoFactorSetup };

/**
 * Two-factor sign-in on (scan the QR code and confirm with a first code; the password first only if
 * the session's step-up is older than 5 minutes) and off (the password and a current code). Both
 * are sensitive actions: should the setup's step-up run out before the first code is typed, the
 * server says `STEP_UP_REQUIRED` and the form asks for the password beside the code, keeping the
 * secret already scanned.
 */
export function TwoFactorSwitch({ enabled }: { enabled: boolean }) {
  const change = useSetTwoFactor(!enabled);
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const [stepUpExpired, setStepUpExpired] = useState(false);

  const onCode = async (body: TwoFactorChange) => {
    try {
      await change.mutateAsync(body);
      toast.success(enabled ? '2FA disabled' : '2FA enabled');
      setPhase({ step: 'idle' });
      setStepUpExpired(false);
      return true;
    } catch (error) {
      console.error('Changing 2FA failed', error);
      if (needsStepUp(error)) setStepUpExpired(true);
      toast.error(errorDetail(error, 'Verification failed'));
      return false;
    }
  };

  if (enabled) {
    return (
      <>
        <p className="muted small">
          Enter your password and a current code from your authenticator app to turn it off.
        </p>
        <CodeForm submitLabel="Turn off 2FA" busy={change.isPending} askPassword onSubmit={onCode} />
      </>
    );
  }
  const onSetup = (setup: TwoFactorSetup) => setPhase({ step: 'scan', setup });
  if (phase.step === 'scan') {
    return (
      <div className="security-card__setup">
        <img
          className="security-card__qr"
          src={phase.setup.qr_code}
          alt="Scan this QR code with your authenticator app"
          width={180}
          height={180}
        />
        <div>
          <p className="muted small">Scan the code, or enter this secret key by hand:</p>
          <code className="security-card__secret" aria-label="Secret key">
            {phase.setup.secret}
          </code>
          <CodeForm
            submitLabel="Turn on 2FA"
            busy={change.isPending}
            askPassword={stepUpExpired}
            onSubmit={onCode}
          />
          {stepUpExpired && <GoogleAccountNote />}
        </div>
      </div>
    );
  }
  if (phase.step === 'password') {
    return <PasswordStep onSetup={onSetup} onCancel={() => setPhase({ step: 'idle' })} />;
  }
  return <EnableButton onSetup={onSetup} onStepUp={() => setPhase({ step: 'password' })} />;
}
