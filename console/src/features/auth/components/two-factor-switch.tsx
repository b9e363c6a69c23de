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

/** The password first: setup is a sensitive action, and this request is its step-up. */
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
      <p className="muted small">Confirm your password to set up two-factor authentication.</p>
      <PasswordField value={password} onChange={setPassword} />
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

type Phase = { step: 'idle' } | { step: 'password' } | { step: 'scan'; setup: TwoFactorSetup };

/**
 * Two-factor sign-in on (the password, then scan the QR code and confirm with a first code) and off
 * (the password and a current code). Both are sensitive actions that need the password (and, to
 * turn it off, the code) on this session within 5 minutes: should the setup's step-up run out
 * before the first code is typed, the server says `STEP_UP_REQUIRED` and the form asks for the
 * password again beside the code, keeping the secret already scanned.
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
      if (error instanceof ApiError && error.code === STEP_UP_REQUIRED) setStepUpExpired(true);
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
        </div>
      </div>
    );
  }
  if (phase.step === 'password') {
    return (
      <PasswordStep
        onSetup={(setup) => setPhase({ step: 'scan', setup })}
        onCancel={() => setPhase({ step: 'idle' })}
      />
    );
  }
  return (
    <>
      <p className="muted small">
        Protect your account with a code from an authenticator app at every sign-in.
      </p>
      <button type="button" className="button button--primary" onClick={() => setPhase({ step: 'password' })}>
        Enable 2FA
      </button>
    </>
  );
}
