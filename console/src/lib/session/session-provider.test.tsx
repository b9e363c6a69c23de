// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, waitFor } from '@testing-library/react';
import { bodiesOf, fakeApi, json, type FetchMock } from '../../testing/fake-api';
import { clearCsrfCookie, setCsrfCookie } from '../../testing/cookies';
import { TEST_USER, renderWithSession } from '../../testing/render';
import { tokenStore } from '../token-store';
import { useSession, type Session } from './session-context';

let session: Session | null = null;

function SessionProbe() {
  session = useSession();
  return null;
}

function current(): Session {
  if (!session) throw new Error('SessionProbe has not rendered');
  return session;
}

function headersOf(fetchMock: FetchMock, method: string, path: string): Record<string, string> {
  const call = fetchMock.mock.calls.find(([url, init]) => url === path && init?.method === method);
  return (call?.[1]?.headers as Record<string, string> | undefined) ?? {};
}

async function signedIn(routes: Parameters<typeof fakeApi>[0] = {}): Promise<FetchMock> {
  tokenStore.setAccessToken('access-1');
  const fetchMock = fakeApi({ 'GET /api/auth/me': json(TEST_USER), ...routes });
  renderWithSession(<SessionProbe />);
  await waitFor(() => expect(current().user).toEqual(TEST_USER));
  return fetchMock;
}

beforeEach(() => {
  localStorage.clear();
  session = null;
});

afterEach(() => {
  cleanup();
  clearCsrfCookie();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SessionProvider', () => {
  it('signs in with the access token alone and loads the user', async () => {
    const fetchMock = fakeApi({ 'GET /api/auth/me': json(TEST_USER) });
    renderWithSession(<SessionProbe />);
    expect(current().user).toBeNull();
    await act(() => current().signIn('access-1'));
    expect(current().user).toEqual(TEST_USER);
    expect(localStorage.getItem('access_token')).toBe('access-1');
    expect(localStorage.getItem('user_id')).toBe(TEST_USER.id);
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(headersOf(fetchMock, 'GET', '/api/auth/me').authorization).toBe('Bearer access-1');
  });

  it('logs out with the CSRF header and no body, then forgets the session', async () => {
    setCsrfCookie('csrf-1');
    const fetchMock = await signedIn({ 'POST /api/auth/logout': json({ status: 'ok' }) });
    await act(() => current().logout());
    const headers = headersOf(fetchMock, 'POST', '/api/auth/logout');
    expect(headers['x-csrf-token']).toBe('csrf-1');
    // The cookie identifies the session; a dead access token must not stand in the way.
    expect(headers.authorization).toBeUndefined();
    expect(bodiesOf(fetchMock, 'POST', '/api/auth/logout')).toEqual([undefined]);
    expect(current().user).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('forgets the session before the server answers the logout, so no poll outlives it', async () => {
    setCsrfCookie('csrf-1');
    let answer: (response: Response) => void = () => undefined;
    const answered = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const fetchMock = await signedIn({ 'POST /api/auth/logout': () => answered });
    let done = false;
    let ending: Promise<void> = Promise.resolve();
    act(() => {
      ending = current()
        .logout()
        .then(() => {
          done = true;
        });
    });
    // The request is on its way with its CSRF header, and nothing of the session is left here.
    expect(headersOf(fetchMock, 'POST', '/api/auth/logout')['x-csrf-token']).toBe('csrf-1');
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(done).toBe(false);
    answer(json({ status: 'ok' }));
    await act(() => ending);
    expect(done).toBe(true);
  });

  it("ends an earlier version's session with its stored refresh token, in the body", async () => {
    localStorage.setItem('refresh_token', 'legacy-1');
    const fetchMock = await signedIn({ 'POST /api/auth/logout': json({ status: 'ok' }) });
    await act(() => current().logout());
    expect(bodiesOf(fetchMock, 'POST', '/api/auth/logout')).toEqual([{ refresh_token: 'legacy-1' }]);
    expect(localStorage.length).toBe(0);
  });

  it('forgets the session even when the logout call fails, logging the error', async () => {
    setCsrfCookie('csrf-1');
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    await signedIn({ 'POST /api/auth/logout': json({ detail: 'Bad CSRF', code: 'CSRF_REJECTED' }, 403) });
    await act(() => current().logout());
    expect(consoleError).toHaveBeenCalledWith('Logout failed', expect.anything());
    expect(current().user).toBeNull();
    expect(tokenStore.accessToken()).toBeNull();
  });

  it('logs out everywhere with the Bearer token, then forgets the session', async () => {
    const fetchMock = await signedIn({
      'POST /api/auth/logout-all': json({ status: 'ok', sessions_ended: 3 }),
    });
    await act(() => current().logoutEverywhere());
    expect(headersOf(fetchMock, 'POST', '/api/auth/logout-all').authorization).toBe('Bearer access-1');
    expect(current().user).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it('keeps the session when logging out everywhere fails', async () => {
    await signedIn({ 'POST /api/auth/logout-all': json({ detail: 'Try again later' }, 503) });
    await expect(act(() => current().logoutEverywhere())).rejects.toMatchObject({ status: 503 });
    expect(current().user).toEqual(TEST_USER);
    expect(tokenStore.accessToken()).toBe('access-1');
  });
});
