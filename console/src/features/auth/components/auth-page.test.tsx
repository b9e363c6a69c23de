// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { bodiesOf, fakeApi, json, type FetchMock } from '../../../testing/fake-api';
import { TEST_USER, renderWithProviders, renderWithSession } from '../../../testing/render';
import { AuthPage } from './auth-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

async function fillRegistration() {
  const user = userEvent.setup();
  renderWithProviders(<AuthPage />, { path: '/auth' });
  await user.click(screen.getByRole('button', { name: 'Sign Up' }));
  expect(screen.getByText('Create Account', { selector: 'h1' })).toBeTruthy();
  expect(screen.getByText('Sign up to get started')).toBeTruthy();
  await user.type(screen.getByLabelText('Full Name'), 'Ann Lee');
  await user.type(screen.getByLabelText('Email Address'), 'ann@example.com');
  await user.type(screen.getByLabelText('Password'), 'a-long-password');
  return user;
}

const SIGNED_IN = { access_token: 'access-1', refresh_token: '', requires_2fa: false };
const EXTRA_CHECK = {
  code: 'EXTRA_VERIFICATION_REQUIRED',
  detail: 'Too many failed sign-ins: enter the code from your authenticator app as well',
};

async function submitLogin(email = 'ann@example.com', password = 'a-long-password') {
  const user = userEvent.setup();
  renderWithSession(<AuthPage />, { path: '/auth' });
  await user.type(screen.getByLabelText('Email Address'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return user;
}

function loginHeaders(fetchMock: FetchMock, index = 0): Record<string, string> {
  const logins = fetchMock.mock.calls.filter(([url]) => url === '/api/auth/login');
  return (logins[index]?.[1]?.headers as Record<string, string> | undefined) ?? {};
}

describe('AuthPage', () => {
  it('starts in login mode', () => {
    renderWithProviders(<AuthPage />, { path: '/auth' });
    expect(screen.getByText('Welcome Back')).toBeTruthy();
    expect(screen.getByText('Login to start trading')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.getByText('Or continue with email')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
  });

  it('refuses to register without the 18+ confirmation', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = await fillRegistration();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(toast.error).toHaveBeenCalledWith('You must be 18+ years old to register');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses to register without accepting the terms', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = await fillRegistration();
    await user.click(screen.getByLabelText('I confirm that I am 18 years or older'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(toast.error).toHaveBeenCalledWith('You must accept the Terms & Conditions');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the Google failure toast when Google sign-in is not configured', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AuthPage />, { path: '/auth' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(toast.error).toHaveBeenCalledWith('Google login failed');
  });

  it('signs in asking for the session cookie, and stores only the access token', async () => {
    const fetchMock = fakeApi({
      'POST /api/auth/login': json(SIGNED_IN),
      'GET /api/auth/me': json(TEST_USER),
    });
    await submitLogin();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/trade'));

    expect(bodiesOf(fetchMock, 'POST', '/api/auth/login')).toEqual([
      { email: 'ann@example.com', password: 'a-long-password' },
    ]);
    expect(loginHeaders(fetchMock)['x-updown-session']).toBe('cookie');
    expect(loginHeaders(fetchMock).authorization).toBeUndefined();
    expect(toast.success).toHaveBeenCalledWith('Login successful!');
    expect(localStorage.getItem('access_token')).toBe('access-1');
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });

  it('asks for the authenticator code when the server wants extra verification, then sends it', async () => {
    let attempts = 0;
    const fetchMock = fakeApi({
      'POST /api/auth/login': () => {
        attempts += 1;
        return attempts === 1 ? json(EXTRA_CHECK, 429) : json(SIGNED_IN);
      },
      'GET /api/auth/me': json(TEST_USER),
    });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const user = await submitLogin();

    expect(await screen.findByText(EXTRA_CHECK.detail)).toBeTruthy();
    expect(alert).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
    const code = screen.getByLabelText('Authenticator code') as HTMLInputElement;
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');

    // Fewer than six digits: refused here, nothing sent.
    await user.type(code, '12a3');
    expect(code.value).toBe('123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(toast.error).toHaveBeenCalledWith('Please enter a valid 6-digit code');
    expect(attempts).toBe(1);

    await user.type(code, '4567');
    expect(code.value).toBe('123456');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/trade'));
    expect(bodiesOf(fetchMock, 'POST', '/api/auth/login')).toEqual([
      { email: 'ann@example.com', password: 'a-long-password' },
      { email: 'ann@example.com', password: 'a-long-password', totp_code: '123456' },
    ]);
    expect(loginHeaders(fetchMock, 1)['x-updown-session']).toBe('cookie');
    expect(localStorage.getItem('access_token')).toBe('access-1');
  });

  it('shows any other refusal of the sign-in as before, without the code field', async () => {
    fakeApi({
      'POST /api/auth/login': json(
        { code: 'RATE_LIMITED', detail: 'Too many requests, try again in 30 s' },
        429,
      ),
    });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await submitLogin();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Too many requests, try again in 30 s'));
    expect(alert).toHaveBeenCalledWith('Login Error: Too many requests, try again in 30 s');
    expect(screen.queryByLabelText('Authenticator code')).toBeNull();
  });
});
