// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client';
import { TEST_USER, fakeSession, renderWithProviders, renderWithSession } from '../../../testing/render';
import { tokenStore } from '../../../lib/token-store';
import { bodiesOf, calls, fakeSecurityApi, json } from '../testing/fake-security-api';
import { SecurityCard } from './security-card';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/x',
  qr_code: 'data:image/png;base64,AAAA',
};

const STEP_UP_REQUIRED = {
  detail: 'Confirm your password first: this action needs a password check from the last 5 minutes',
  code: 'STEP_UP_REQUIRED',
};

/** What an account made by Google sign-in (no password it knows) is told to do instead. */
const GOOGLE_NOTE =
  'Signed up with Google? Your account has no password to confirm: log out, sign in again with Google, and choose Enable 2FA within 5 minutes.';

const GUARDED_USER = { ...TEST_USER, twofa_enabled: true };

function input(label: string): HTMLInputElement {
  return screen.getByLabelText(label);
}

function button(name: string): HTMLButtonElement {
  return screen.getByRole('button', { name });
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.clearAllMocks();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('SecurityCard: two-factor', () => {
  it('turns two-factor on right after sign-in without asking for the password: the QR code, then a 6-digit code', async () => {
    const fetchMock = fakeSecurityApi({
      'POST /api/2fa/setup': json(SETUP),
      'POST /api/2fa/enable': json({ status: 'ok' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });

    expect(screen.getByText('OFF')).toBeTruthy();
    await user.click(button('Enable 2FA'));

    const qr = await screen.findByAltText('Scan this QR code with your authenticator app');
    expect(qr.getAttribute('src')).toBe(SETUP.qr_code);
    expect(screen.getByLabelText('Secret key').textContent).toBe(SETUP.secret);
    // No body: the session's sign-in is its step-up, and nobody was asked for a password.
    expect(bodiesOf(fetchMock, 'POST', '/api/2fa/setup')).toEqual([undefined]);
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByText(GOOGLE_NOTE)).toBeNull();

    const submit = button('Turn on 2FA');
    await user.type(input('Verification code'), '12a34');
    expect(input('Verification code').value).toBe('1234');
    expect(submit.disabled).toBe(true);
    await user.type(input('Verification code'), '5678');
    await user.click(submit);

    expect(toast.success).toHaveBeenCalledWith('2FA enabled');
    expect(bodiesOf(fetchMock, 'POST', '/api/2fa/enable')).toEqual([{ token: '123456' }]);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('asks for the password only when the server says STEP_UP_REQUIRED, says what a Google account does, and sets up with it', async () => {
    const fetchMock = fakeSecurityApi({
      'POST /api/2fa/setup': (body) => (body === undefined ? json(STEP_UP_REQUIRED, 403) : json(SETUP)),
      'POST /api/2fa/enable': json({ status: 'ok' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.click(button('Enable 2FA'));

    await screen.findByLabelText('Password');
    expect(screen.getByText(GOOGLE_NOTE)).toBeTruthy();
    // The refusal is the expected way in to the password step, not an error to show.
    expect(toast.error).not.toHaveBeenCalled();
    expect(screen.queryByLabelText('Secret key')).toBeNull();
    // Two-factor is off, so the step-up is the password alone: no code field yet.
    expect(screen.queryByLabelText('Verification code')).toBeNull();
    expect(button('Continue').disabled).toBe(true);
    await user.type(input('Password'), 'my-password');
    await user.click(button('Continue'));

    expect((await screen.findByLabelText('Secret key')).textContent).toBe(SETUP.secret);
    expect(bodiesOf(fetchMock, 'POST', '/api/2fa/setup')).toEqual([undefined, { password: 'my-password' }]);
    // The password just given covers the first code: no second password field.
    expect(screen.queryByLabelText('Password')).toBeNull();
    await user.type(input('Verification code'), '123456');
    await user.click(button('Turn on 2FA'));
    expect(toast.success).toHaveBeenCalledWith('2FA enabled');
    expect(bodiesOf(fetchMock, 'POST', '/api/2fa/enable')).toEqual([{ token: '123456' }]);
  });

  it("shows the server's detail and stays on Enable 2FA when the setup is refused for another reason", async () => {
    const fetchMock = fakeSecurityApi({
      'POST /api/2fa/setup': json(
        { detail: 'Two-factor authentication is already on', code: 'TWO_FACTOR_ALREADY_ENABLED' },
        409,
      ),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.click(button('Enable 2FA'));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Two-factor authentication is already on'));
    expect(button('Enable 2FA').disabled).toBe(false);
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByLabelText('Secret key')).toBeNull();
    expect(calls(fetchMock).filter((call) => call === 'POST /api/2fa/setup')).toHaveLength(1);
  });

  it("keeps asking for the password when the server refuses it, and shows the server's detail", async () => {
    fakeSecurityApi({
      'POST /api/2fa/setup': (body) =>
        body === undefined
          ? json(STEP_UP_REQUIRED, 403)
          : json({ detail: 'The current password is not correct', code: 'WRONG_PASSWORD' }, 400),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.click(button('Enable 2FA'));
    await user.type(await screen.findByLabelText('Password'), 'not-it');
    await user.click(button('Continue'));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('The current password is not correct'));
    expect(screen.queryByLabelText('Secret key')).toBeNull();
    expect(input('Password').value).toBe('not-it');
  });

  it('goes back to "Enable 2FA" on Cancel without calling the server again', async () => {
    const fetchMock = fakeSecurityApi({ 'POST /api/2fa/setup': json(STEP_UP_REQUIRED, 403) });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.click(button('Enable 2FA'));
    await screen.findByLabelText('Password');
    await user.click(button('Cancel'));
    expect(button('Enable 2FA')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(calls(fetchMock).filter((call) => call.includes('/api/2fa/'))).toEqual(['POST /api/2fa/setup']);
  });

  it("shows the server's detail when the code is refused, and stays in setup", async () => {
    fakeSecurityApi({
      'POST /api/2fa/setup': json(SETUP),
      'POST /api/2fa/enable': json({ detail: 'Invalid 2FA code', code: 'INVALID_2FA_CODE' }, 400),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.click(button('Enable 2FA'));
    await user.type(await screen.findByLabelText('Verification code'), '000000');
    await user.click(button('Turn on 2FA'));
    expect(toast.error).toHaveBeenCalledWith('Invalid 2FA code');
    expect(toast.success).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Secret key')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('asks for the password beside the code once the step-up ran out, and stays signed in on the 403', async () => {
    tokenStore.setAccessToken('access-1');
    let enables = 0;
    const fetchMock = fakeSecurityApi({
      'GET /api/auth/me': json(TEST_USER),
      'POST /api/2fa/setup': json(SETUP),
      'POST /api/2fa/enable': () => {
        enables += 1;
        return enables === 1 ? json(STEP_UP_REQUIRED, 403) : json({ status: 'ok' });
      },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithSession(<SecurityCard />, { path: '/dashboard' });
    await user.click(await screen.findByRole('button', { name: 'Enable 2FA' }));
    await user.type(await screen.findByLabelText('Verification code'), '123456');
    await user.click(button('Turn on 2FA'));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(STEP_UP_REQUIRED.detail));
    // A 403 is no reason to end the session: the token stays, the page stays, the secret too.
    expect(tokenStore.accessToken()).toBe('access-1');
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    expect(calls(fetchMock)).not.toContain('POST /api/auth/refresh');
    expect(screen.getByLabelText('Secret key').textContent).toBe(SETUP.secret);
    expect(button('Turn on 2FA').disabled).toBe(true);
    expect(screen.getByText(GOOGLE_NOTE)).toBeTruthy();

    await user.type(input('Password'), 'my-password');
    await user.click(button('Turn on 2FA'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('2FA enabled'));
    expect(bodiesOf(fetchMock, 'POST', '/api/2fa/setup')).toEqual([undefined]);
    expect(bodiesOf(fetchMock, 'POST', '/api/2fa/enable')).toEqual([
      { token: '123456' },
      { token: '123456', password: 'my-password' },
    ]);
  });

  it('turns two-factor off with the password and a current code', async () => {
    const fetchMock = fakeSecurityApi({ 'POST /api/2fa/disable': json({ status: 'ok' }) });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: GUARDED_USER }) });
    expect(screen.getByText('ON')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Enable 2FA' })).toBeNull();
    await user.type(input('Verification code'), '654321');
    // The code alone is not enough: the password is part of the step-up.
    expect(button('Turn off 2FA').disabled).toBe(true);
    await user.type(input('Password'), 'my-password');
    await user.click(button('Turn off 2FA'));
    expect(toast.success).toHaveBeenCalledWith('2FA disabled');
    expect(bodiesOf(fetchMock, 'POST', '/api/2fa/disable')).toEqual([
      { token: '654321', password: 'my-password' },
    ]);
    expect(input('Password').value).toBe('');
  });

  it("keeps two-factor on and what was typed when the server refuses, with the server's detail", async () => {
    fakeSecurityApi({
      'POST /api/2fa/disable': json(
        { detail: 'The current password is not correct', code: 'WRONG_PASSWORD' },
        400,
      ),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: GUARDED_USER }) });
    await user.type(input('Password'), 'not-it');
    await user.type(input('Verification code'), '654321');
    await user.click(button('Turn off 2FA'));
    expect(toast.error).toHaveBeenCalledWith('The current password is not correct');
    expect(toast.success).not.toHaveBeenCalled();
    expect(input('Password').value).toBe('not-it');
    expect(input('Verification code').value).toBe('654321');
  });
});

describe('SecurityCard: password and sessions', () => {
  it('changes the password, says other devices are signed out, and clears the fields', async () => {
    const fetchMock = fakeSecurityApi({
      'POST /api/auth/password': json({ status: 'ok', sessions_ended: 2 }),
    });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    // Without two-factor there is no code to give.
    expect(screen.queryByLabelText('Authenticator code')).toBeNull();
    await user.type(input('Current password'), 'old-password');
    await user.type(input('New password'), 'a-new-long-password');
    await user.click(button('Change password'));

    expect(toast.success).toHaveBeenCalledWith('Password changed. Other devices are signed out.');
    expect(bodiesOf(fetchMock, 'POST', '/api/auth/password')).toEqual([
      { current_password: 'old-password', new_password: 'a-new-long-password' },
    ]);
    expect(input('Current password').value).toBe('');
    expect(input('New password').value).toBe('');
    // The other sessions ended and the change is recorded: both lists reload.
    await waitFor(() =>
      expect(calls(fetchMock).filter((call) => call === 'GET /api/auth/sessions')).toHaveLength(2),
    );
  });

  it('sends the authenticator code with a password change when two-factor is on', async () => {
    const fetchMock = fakeSecurityApi({
      'POST /api/auth/password': json({ status: 'ok', sessions_ended: 0 }),
    });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: GUARDED_USER }) });
    await user.type(input('Current password'), 'old-password');
    await user.type(input('New password'), 'a-new-long-password');
    await user.type(input('Authenticator code'), '123');
    await user.click(button('Change password'));
    expect(toast.error).toHaveBeenCalledWith('Please enter a valid 6-digit code');
    expect(bodiesOf(fetchMock, 'POST', '/api/auth/password')).toEqual([]);

    await user.type(input('Authenticator code'), '456');
    await user.click(button('Change password'));
    expect(toast.success).toHaveBeenCalledWith('Password changed. Other devices are signed out.');
    expect(bodiesOf(fetchMock, 'POST', '/api/auth/password')).toEqual([
      { current_password: 'old-password', new_password: 'a-new-long-password', totp_code: '123456' },
    ]);
    expect(input('Authenticator code').value).toBe('');
  });

  it("shows the server's detail when the current password is wrong, keeping what was typed", async () => {
    fakeSecurityApi({
      'POST /api/auth/password': json(
        { detail: 'The current password is not correct', code: 'WRONG_PASSWORD' },
        400,
      ),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.type(input('Current password'), 'not-it');
    await user.type(input('New password'), 'a-new-long-password');
    await user.click(button('Change password'));

    expect(toast.error).toHaveBeenCalledWith('The current password is not correct');
    expect(toast.success).not.toHaveBeenCalled();
    expect(input('Current password').value).toBe('not-it');
  });

  it('logs out everywhere: ends every session on the server, forgets this one and leaves', async () => {
    tokenStore.setAccessToken('access-1');
    const fetchMock = fakeSecurityApi({
      'GET /api/auth/me': json(TEST_USER),
      'POST /api/auth/logout-all': json({ status: 'ok', sessions_ended: 3 }),
    });
    const user = userEvent.setup();
    renderWithSession(<SecurityCard />, { path: '/dashboard' });
    expect(screen.getByText('Signs you out on every device, this one included.')).toBeTruthy();
    await user.click(button('Log out everywhere'));

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/logout-all');
    expect((call?.[1]?.headers as Record<string, string>).authorization).toBe('Bearer access-1');
    expect(tokenStore.accessToken()).toBeNull();
  });

  it('stays signed in and says so when logging out everywhere fails', async () => {
    fakeSecurityApi();
    const logoutEverywhere = vi.fn(async () => {
      throw new ApiError(503, 'Try again in a minute', 'UNAVAILABLE');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, {
      session: fakeSession({ user: TEST_USER, logoutEverywhere }),
      path: '/dashboard',
    });
    await user.click(button('Log out everywhere'));
    expect(logoutEverywhere).toHaveBeenCalledTimes(1);
    expect(toast.error).toHaveBeenCalledWith('Try again in a minute');
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    expect(button('Log out everywhere').disabled).toBe(false);
  });
});
