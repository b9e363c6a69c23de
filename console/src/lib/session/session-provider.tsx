import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client';
import { tokenStore } from '../token-store';
import { meQueryOptions, useMe } from './get-me';
import { SessionContext, type Session } from './session-context';

/**
 * The signed-in user. With a stored access token the user is loaded from `/api/auth/me` (the API
 * client refreshes once on a 401 and clears the tokens when that fails); without one there is no
 * user and nothing loads.
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
    async (accessToken: string, refreshToken: string) => {
      tokenStore.setTokens(accessToken, refreshToken);
      setHasToken(true);
      await queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0 });
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    const refreshToken = tokenStore.refreshToken();
    if (refreshToken) {
      try {
        // The token goes in the body: a URL lands in access logs and proxies.
        await api.post('/api/auth/logout', { refresh_token: refreshToken }, { auth: false });
      } catch (error) {
        console.error('Logout failed', error);
      }
    }
    tokenStore.clear();
    queryClient.clear();
  }, [queryClient]);

  const session = useMemo<Session>(
    () => ({ user, loading, isAdmin: user?.role === 'admin', signIn, logout }),
    [user, loading, signIn, logout],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
