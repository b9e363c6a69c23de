// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { toast } from 'sonner';
import { bodiesOf, fakeApi, json } from '../../../testing/fake-api';
import { TEST_USER, renderWithSession } from '../../../testing/render';
import { TwoFactorPage } from './two-factor-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

function TwoFactorRoute() {
  return (
    <Routes>
      <Route path="/2fa-verify" element={<TwoFactorPage />} />
      <Route path="*" element={null} />
    </Routes>
  );
}

describe('TwoFactorPage', () => {
  it('verifies the code asking for the session cookie, and stores only the access token', async () => {
    const fetchMock = fakeApi({
      'POST /api/2fa/verify': json({ access_token: 'access-1', refresh_token: '' }),
      'GET /api/auth/me': json(TEST_USER),
    });
    const user = userEvent.setup();
    renderWithSession(<TwoFactorRoute />, { path: '/2fa-verify', state: { tempToken: 'temp-1' } });
    await user.type(screen.getByLabelText('Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/trade'));

    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/2fa/verify')!;
    const headers = init?.headers as Record<string, string>;
    expect(headers['x-updown-session']).toBe('cookie');
    expect(headers.authorization).toBe('Bearer temp-1');
    expect(bodiesOf(fetchMock, 'POST', '/api/2fa/verify')).toEqual([{ token: '123456' }]);
    expect(toast.success).toHaveBeenCalledWith('2FA verification successful!');
    expect(localStorage.getItem('access_token')).toBe('access-1');
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });
});
