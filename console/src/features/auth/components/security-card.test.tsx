// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { TEST_USER, fakeSession, renderWithProviders } from '../../../testing/render';
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
  vi.clearAllMocks();
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
});
