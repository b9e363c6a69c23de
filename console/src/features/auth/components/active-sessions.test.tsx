// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { formatEventTime } from '../../../lib/security-activity';
import { fakeSession, renderWithProviders, TEST_USER } from '../../../testing/render';
import { calls, fakeSecurityApi, json, PHONE_SESSION, THIS_SESSION } from '../testing/fake-security-api';
import { ActiveSessions } from './active-sessions';
import { SecurityActivity } from './security-activity';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function itemOf(device: string) {
  return within(screen.getByText(device).closest('li')!);
}

describe('ActiveSessions', () => {
  it('lists each session with its device, address, last seen and sign-in times, this one marked', async () => {
    fakeSecurityApi({ 'GET /api/auth/sessions': json({ sessions: [THIS_SESSION, PHONE_SESSION] }) });
    renderWithProviders(<ActiveSessions />, { session: fakeSession({ user: TEST_USER }) });

    const list = await screen.findByRole('list', { name: 'Active sessions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    const laptop = itemOf('Chrome on Linux');
    expect(laptop.getByText('This device')).toBeTruthy();
    expect(laptop.getByText(/203\.0\.113\.7/)).toBeTruthy();
    expect(laptop.getByText(formatEventTime(THIS_SESSION.last_seen_at)).getAttribute('datetime')).toBe(
      THIS_SESSION.last_seen_at,
    );
    expect(laptop.getByText(/Last seen/)).toBeTruthy();
    const phone = itemOf('Safari on iOS');
    expect(phone.queryByText('This device')).toBeNull();
    expect(phone.getByText(/198\.51\.100\.20/)).toBeTruthy();
    expect(phone.getByText(formatEventTime(PHONE_SESSION.signed_in_at))).toBeTruthy();
    expect(phone.getByRole('button', { name: 'End session' })).toBeTruthy();
    expect(laptop.getByRole('button', { name: 'End session' })).toBeTruthy();
  });

  it('says "Unknown address" when the server has none', async () => {
    fakeSecurityApi({ 'GET /api/auth/sessions': json({ sessions: [{ ...PHONE_SESSION, address: null }] }) });
    renderWithProviders(<ActiveSessions />, { session: fakeSession({ user: TEST_USER }) });
    expect(await screen.findByText(/Unknown address/)).toBeTruthy();
  });

  it("ends another device's session on the server and reloads the lists, staying signed in here", async () => {
    let ended = false;
    const logout = vi.fn(async () => {});
    const fetchMock = fakeSecurityApi({
      'GET /api/auth/sessions': () =>
        json({ sessions: ended ? [THIS_SESSION] : [THIS_SESSION, PHONE_SESSION] }),
      [`DELETE /api/auth/sessions/${PHONE_SESSION.id}`]: () => {
        ended = true;
        return json({ status: 'ok' });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <ActiveSessions />
        <SecurityActivity />
      </>,
      { session: fakeSession({ user: TEST_USER, logout }), path: '/dashboard' },
    );
    await screen.findByText('Safari on iOS');
    await user.click(itemOf('Safari on iOS').getByRole('button', { name: 'End session' }));

    expect(toast.success).toHaveBeenCalledWith('Session ended');
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).toBeNull());
    expect(calls(fetchMock)).toContain(`DELETE /api/auth/sessions/${PHONE_SESSION.id}`);
    // The ending is recorded in the activity, which reloads too.
    await waitFor(() =>
      expect(
        calls(fetchMock).filter((call) => call.startsWith('GET /api/auth/security-activity')),
      ).toHaveLength(2),
    );
    expect(logout).not.toHaveBeenCalled();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
  });

  it("shows the server's detail when the session is gone already, and reloads the list", async () => {
    const fetchMock = fakeSecurityApi({
      'GET /api/auth/sessions': json({ sessions: [THIS_SESSION, PHONE_SESSION] }),
      [`DELETE /api/auth/sessions/${PHONE_SESSION.id}`]: json(
        { detail: 'No such active session on your account', code: 'SESSION_NOT_FOUND' },
        404,
      ),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<ActiveSessions />, { session: fakeSession({ user: TEST_USER }) });
    await screen.findByText('Safari on iOS');
    await user.click(itemOf('Safari on iOS').getByRole('button', { name: 'End session' }));

    expect(toast.error).toHaveBeenCalledWith('No such active session on your account');
    expect(toast.success).not.toHaveBeenCalled();
    await waitFor(() =>
      expect(calls(fetchMock).filter((call) => call === 'GET /api/auth/sessions')).toHaveLength(2),
    );
  });

  it("ends this device's session as a logout: no DELETE, the session forgotten, then /login", async () => {
    const logout = vi.fn(async () => {});
    const fetchMock = fakeSecurityApi({
      'GET /api/auth/sessions': json({ sessions: [THIS_SESSION, PHONE_SESSION] }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ActiveSessions />, {
      session: fakeSession({ user: TEST_USER, logout }),
      path: '/dashboard',
    });
    await screen.findByText('This device');
    await user.click(itemOf('Chrome on Linux').getByRole('button', { name: 'End session' }));

    expect(logout).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(calls(fetchMock).filter((call) => call.startsWith('DELETE'))).toEqual([]);
  });

  it('says so when the sessions cannot be loaded', async () => {
    fakeSecurityApi({
      'GET /api/auth/sessions': json({ detail: 'Service unavailable', code: 'UNAVAILABLE' }, 503),
    });
    renderWithProviders(<ActiveSessions />, { session: fakeSession({ user: TEST_USER }) });
    expect(await screen.findByText('Sessions could not be loaded')).toBeTruthy();
  });
});
