import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { useVerifyTwoFactor } from '../api/verify-two-factor';

/** An authenticator code's length (spec §9). */
export const CODE_LENGTH = 6;

/** Keeps digits only, at most six of them. */
export function sanitizeCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

export function TwoFactorPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { signIn } = useSession();
  const verify = useVerifyTwoFactor();
  const [code, setCode] = useState('');
  const tempToken = (location.state as { tempToken?: string } | null)?.tempToken;
  const complete = code.length === CODE_LENGTH;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete) {
      toast.error('Please enter a valid 6-digit code');
      return;
    }
    if (!tempToken) {
      toast.error('Verification failed');
      return;
    }
    try {
      const tokens = await verify.mutateAsync({ code, tempToken });
      await signIn(tokens.access_token);
      toast.success('2FA verification successful!');
      await navigate('/trade');
    } catch (error) {
      console.error('2FA verification failed', error);
      toast.error(errorDetail(error, 'Verification failed'));
    }
  };

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>Two-Factor Authentication</h1>
        <p className="muted">Enter the 6-digit code from your authenticator app</p>
        <h2>Verify Identity</h2>
        <form className="form" onSubmit={(event) => void onSubmit(event)}>
          <input
            className="code-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-label="Code"
            placeholder="000000"
            value={code}
            onChange={(event) => setCode(sanitizeCode(event.target.value))}
          />
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={!complete || verify.isPending}
          >
            {verify.isPending ? 'Verifying...' : 'Verify'}
          </button>
        </form>
        <Link to="/login" className="auth-card__toggle">
          Back to login
        </Link>
      </div>
    </div>
  );
}
