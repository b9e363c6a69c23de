import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { tokenStore } from '../token-store';
import { endAllSessions, endSession } from './end-session';
import { meQueryOptions, useMe } from './get-me';
import { SessionContext, type Session } from './session-context';

/**
 * The signed-in user. With a stored access token the user is loaded from `/api/auth/me` (the API
 * client refreshes once on a 401, through the session cookie, and forgets the session when that
 * fails); without one there is no user and nothing loads.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [hasToken, setHasToken] = useState(() => tokenStore.accessToken() !== null);

  useEffect(() => tokenStore.subscribe(() => setHasToken(tokenStore.accessToken() !== null)), []);

  const me = useMe(hasToken);
  const user = hasToken ? (me.data ?? null) : null;
  const loading = hasToken && me.isPending;

  useEffect(() => {
    if (me.data) tokenStore.setUserId(me.data.id);
  }, [me.data]);

  const signIn = useCallback(
    async (accessToken: string) => {
      tokenStore.setAccessToken(accessToken);
      setHasToken(true);
      await queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0 });
    },
    [queryClient],
  );

  const forget = useCallback(() => {
    tokenStore.clear();
    queryClient.clear();
  }, [queryClient]);

  /**
   * Forgets the session here at once, in the same tick as the caller's navigation, while the
   * server ends it. The server refuses the access token from that moment, so a poll still in
   * flight would otherwise come back 401 and end the session under the page first (the spec's
   * logout goes to /login, not straight to /auth). The logout request is already on its way, with
   * its CSRF header, before anything is cleared. Its errors are only logged, as the spec says.
   */
  const logout = useCallback(async () => {
    const ending = endSession();
    forget();
    try {
      await ending;
    } catch (error) {
      console.error('Logout failed', error);
    }
  }, [forget]);

  const logoutEverywhere = useCallback(async () => {
    await endAllSessions();
    forget();
  }, [forget]);

  const session = useMemo<Session>(
    () => ({ user, loading, isAdmin: user?.role === 'admin', signIn, logout, logoutEverywhere }),
    [user, loading, signIn, logout, logoutEverywhere],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
