import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { LoginResponse } from '@updown/schemas/api';
import { ApiError } from '../../../lib/api-client';
import { randomId } from '../../../lib/random-id';
import { useSession } from '../../../lib/session/session-context';
import { useGoogleLogin } from '../api/google-login';
import { useLogin } from '../api/login';
import { useRegister } from '../api/register';
import { ExtraVerificationField } from './extra-verification-field';
import { googleClientId, googleSignInUrl, idTokenFromHash } from './google-sign-in';
import { CODE_LENGTH } from './two-factor-page';

type Mode = 'login' | 'register';

/** The server wants the authenticator's code with this sign-in (too many failures on the account). */
function extraVerificationDetail(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 429) return null;
  if (error.code !== 'EXTRA_VERIFICATION_REQUIRED') return null;
  return error.detail ?? 'Enter the 6-digit code from your authenticator app';
}

/** The auth failure message: the server's detail, else the error's message, else a generic text. */
function authFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.detail) return error.detail;
  if (error instanceof Error && error.message) return error.message;
  return 'Authentication failed';
}

export function AuthPage() {
  const navigate = useNavigate();
  const { signIn } = useSession();
  const [mode, setMode] = useState<Mode>('login');
  const [form, setForm] = useState({ name: '', email: '', password: '' });
  const [ageConfirmed, setAgeConfirmed] = useState(false);
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [busy, setBusy] = useState(false);
  // Set while the server asks for the authenticator code with the password (its detail says why).
  const [extraCheck, setExtraCheck] = useState<string | null>(null);
  const [totpCode, setTotpCode] = useState('');
  const [completingGoogle, setCompletingGoogle] = useState(
    () => idTokenFromHash(window.location.hash) !== null,
  );
  const loginMutation = useLogin();
  const registerMutation = useRegister();
  const googleMutation = useGoogleLogin();
  const googleHandled = useRef(false);

  const finishLogin = async (response: LoginResponse) => {
    if (response.requires_2fa) {
      toast.info('2FA verification required');
      await navigate('/2fa-verify', { state: { tempToken: response.access_token } });
      return;
    }
    await signIn(response.access_token);
    toast.success('Login successful!');
    await navigate('/trade');
  };

  useEffect(() => {
    const idToken = idTokenFromHash(window.location.hash);
    if (!idToken || googleHandled.current) return;
    googleHandled.current = true;
    const clearHash = () => window.history.replaceState(null, '', window.location.pathname);
    googleMutation
      .mutateAsync({ session_token: idToken })
      .then(async (response) => {
        clearHash();
        await finishLogin(response);
      })
      .catch((error: unknown) => {
        console.error('Google login failed', error);
        clearHash();
        toast.error('Google login failed');
      })
      .finally(() => setCompletingGoogle(false));
    // Runs once, on the page load that Google's redirect produced.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onGoogle = () => {
    const clientId = googleClientId();
    if (!clientId) {
      console.error('Google sign-in is not configured');
      toast.error('Google login failed');
      return;
    }
    window.location.assign(googleSignInUrl(clientId, window.location.origin, randomId()));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'register') {
      if (!ageConfirmed) {
        toast.error('You must be 18+ years old to register');
        return;
      }
      if (!termsAccepted) {
        toast.error('You must accept the Terms & Conditions');
        return;
      }
    }
    if (mode === 'login' && extraCheck !== null && totpCode.length !== CODE_LENGTH) {
      toast.error('Please enter a valid 6-digit code');
      return;
    }
    setBusy(true);
    try {
      if (mode === 'register') {
        await registerMutation.mutateAsync(form);
        toast.success('Registration successful! Please login.');
        setMode('login');
        setAgeConfirmed(false);
        setTermsAccepted(false);
      } else {
        const credentials = { email: form.email, password: form.password };
        const body = extraCheck === null ? credentials : { ...credentials, totp_code: totpCode };
        await finishLogin(await loginMutation.mutateAsync(body));
      }
    } catch (error) {
      const extraDetail = extraVerificationDetail(error);
      if (extraDetail !== null) {
        setExtraCheck(extraDetail);
        setTotpCode('');
        return;
      }
      const message = authFailureMessage(error);
      console.error('Authentication failed', error);
      toast.error(message);
      window.alert('Login Error: ' + message);
    } finally {
      setBusy(false);
    }
  };

  if (completingGoogle) return <div className="loading-screen">Completing sign in...</div>;

  const isRegister = mode === 'register';
  return (
    <div className="auth-page">
      <button
        type="button"
        className="button button--ghost auth-page__back"
        onClick={() => void navigate('/')}
      >
        ← Back to home
      </button>
      <div className="card auth-card">
        <h1>{isRegister ? 'Create Account' : 'Welcome Back'}</h1>
        <p className="muted">{isRegister ? 'Sign up to get started' : 'Login to start trading'}</p>
        <button type="button" className="button button--outline button--block" onClick={onGoogle}>
          Continue with Google
        </button>
        <div className="divider">Or continue with email</div>
        <form onSubmit={(event) => void onSubmit(event)} className="form">
          {isRegister && (
            <label className="field">
              <span>Full Name</span>
              <input
                type="text"
                autoComplete="name"
                required
                value={form.name}
                onChange={(event) => setForm({ ...form, name: event.target.value })}
              />
            </label>
          )}
          <label className="field">
            <span>Email Address</span>
            <input
              type="email"
              autoComplete="email"
              required
              value={form.email}
              onChange={(event) => setForm({ ...form, email: event.target.value })}
            />
          </label>
          <label className="field">
            <span>Password</span>
            <input
              type="password"
              autoComplete={isRegister ? 'new-password' : 'current-password'}
              required
              value={form.password}
              onChange={(event) => setForm({ ...form, password: event.target.value })}
            />
          </label>
          {!isRegister && extraCheck !== null && (
            <ExtraVerificationField detail={extraCheck} code={totpCode} onCode={setTotpCode} />
          )}
          {isRegister && (
            <>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={ageConfirmed}
                  onChange={(event) => setAgeConfirmed(event.target.checked)}
                />
                <span>I confirm that I am 18 years or older</span>
              </label>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={termsAccepted}
                  onChange={(event) => setTermsAccepted(event.target.checked)}
                />
                <span>
                  I accept the{' '}
                  <a href="/terms" target="_blank" rel="noreferrer">
                    Terms & Conditions
                  </a>{' '}
                  and{' '}
                  <a href="/privacy" target="_blank" rel="noreferrer">
                    Privacy Policy
                  </a>
                </span>
              </label>
            </>
          )}
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? 'Please wait...' : isRegister ? 'Create Account' : 'Sign In'}
          </button>
        </form>
        <p className="auth-card__toggle">
          {isRegister ? 'Already have an account?' : "Don't have an account?"}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setMode(isRegister ? 'login' : 'register');
              setExtraCheck(null);
              setTotpCode('');
            }}
          >
            {isRegister ? 'Sign In' : 'Sign Up'}
          </button>
        </p>
      </div>
    </div>
  );
}
