// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client';
import { TEST_USER, fakeSession, renderWithProviders, renderWithSession } from '../../../testing/render';
import { tokenStore } from '../../../lib/token-store';
import { SecurityCard } from './security-card';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/x',
  qr_code: 'data:image/png;base64,AAAA',
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status });
}

function mockApi(answers: Record<string, Response>) {
  const fetchMock = vi.fn(
    async (url: string, _init?: RequestInit) => answers[url]?.clone() ?? json({ detail: 'Not found' }, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function bodyOf(fetchMock: ReturnType<typeof mockApi>, url: string): unknown {
  const call = fetchMock.mock.calls.find(([called]) => called === url);
  const init = call?.[1] as RequestInit | undefined;
  return init?.body ? JSON.parse(init.body as string) : undefined;
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.clearAllMocks();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('SecurityCard', () => {
  it('turns two-factor on: QR code and secret, then a 6-digit code confirms it', async () => {
    const fetchMock = mockApi({ '/api/2fa/setup': json(SETUP), '/api/2fa/enable': json({ status: 'ok' }) });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });

    expect(screen.getByText('OFF')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    const qr = await screen.findByAltText('Scan this QR code with your authenticator app');
    expect(qr.getAttribute('src')).toBe(SETUP.qr_code);
    expect(screen.getByLabelText('Secret key').textContent).toBe(SETUP.secret);

    const submit = screen.getByRole('button', { name: 'Turn on 2FA' });
    await user.type(screen.getByLabelText('Verification code'), '12a34');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('1234');
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Verification code'), '5678');
    await user.click(submit);

    expect(toast.success).toHaveBeenCalledWith('2FA enabled');
    expect(bodyOf(fetchMock, '/api/2fa/enable')).toEqual({ token: '123456' });
  });

  it("shows the server's detail when the code is refused, and stays in setup", async () => {
    mockApi({
      '/api/2fa/setup': json(SETUP),
      '/api/2fa/enable': json({ detail: 'Invalid 2FA code', code: 'INVALID_2FA_CODE' }, 400),
    });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    await user.type(await screen.findByLabelText('Verification code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Turn on 2FA' }));
    expect(toast.error).toHaveBeenCalledWith('Invalid 2FA code');
    expect(toast.success).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Secret key')).toBeTruthy();
  });

  it('turns two-factor off with a current code when it is on', async () => {
    const fetchMock = mockApi({ '/api/2fa/disable': json({ status: 'ok' }) });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, {
      session: fakeSession({ user: { ...TEST_USER, twofa_enabled: true } }),
    });
    expect(screen.getByText('ON')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Enable 2FA' })).toBeNull();
    await user.type(screen.getByLabelText('Verification code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn off 2FA' }));
    expect(toast.success).toHaveBeenCalledWith('2FA disabled');
    expect(bodyOf(fetchMock, '/api/2fa/disable')).toEqual({ token: '654321' });
  });

  it('changes the password, says other devices are signed out, and clears the fields', async () => {
    const fetchMock = mockApi({ '/api/auth/password': json({ status: 'ok', sessions_ended: 2 }) });
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'a-new-long-password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(toast.success).toHaveBeenCalledWith('Password changed. Other devices are signed out.');
    expect(bodyOf(fetchMock, '/api/auth/password')).toEqual({
      current_password: 'old-password',
      new_password: 'a-new-long-password',
    });
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's detail when the current password is wrong, keeping what was typed", async () => {
    mockApi({
      '/api/auth/password': json(
        { detail: 'The current password is not correct', code: 'WRONG_PASSWORD' },
        400,
      ),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, { session: fakeSession({ user: TEST_USER }) });
    await user.type(screen.getByLabelText('Current password'), 'not-it');
    await user.type(screen.getByLabelText('New password'), 'a-new-long-password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(toast.error).toHaveBeenCalledWith('The current password is not correct');
    expect(toast.success).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('not-it');
  });

  it('logs out everywhere: ends every session on the server, forgets this one and leaves', async () => {
    tokenStore.setAccessToken('access-1');
    const fetchMock = mockApi({
      '/api/auth/me': json(TEST_USER),
      '/api/auth/logout-all': json({ status: 'ok', sessions_ended: 3 }),
    });
    const user = userEvent.setup();
    renderWithSession(<SecurityCard />, { path: '/dashboard' });
    expect(screen.getByText('Signs you out on every device, this one included.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Log out everywhere' }));

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/logout-all');
    expect((call?.[1]?.headers as Record<string, string>).authorization).toBe('Bearer access-1');
    expect(tokenStore.accessToken()).toBeNull();
  });

  it('stays signed in and says so when logging out everywhere fails', async () => {
    const logoutEverywhere = vi.fn(async () => {
      throw new ApiError(503, 'Try again in a minute', 'UNAVAILABLE');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<SecurityCard />, {
      session: fakeSession({ user: TEST_USER, logoutEverywhere }),
      path: '/dashboard',
    });
    await user.click(screen.getByRole('button', { name: 'Log out everywhere' }));
    expect(logoutEverywhere).toHaveBeenCalledTimes(1);
    expect(toast.error).toHaveBeenCalledWith('Try again in a minute');
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    expect((screen.getByRole('button', { name: 'Log out everywhere' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });
});
