import { api } from '../api-client';
import { csrfHeaders, csrfToken } from '../session-cookie';
import { tokenStore } from '../token-store';

/**
 * Ends this browser's session on the server. The cookie session needs no body: the browser sends
 * the refresh cookie itself, and the CSRF header shows the request came from this origin (the
 * server then clears both cookies). A session an earlier version signed in, whose refresh token is
 * still in localStorage, is ended with that token in the body. With neither there is nothing on
 * the server to end.
 */
export async function endSession(): Promise<void> {
  if (csrfToken()) {
    await api.post('/api/auth/logout', undefined, { auth: false, headers: csrfHeaders() });
    return;
  }
  const legacyRefreshToken = tokenStore.legacyRefreshToken();
  if (legacyRefreshToken) {
    await api.post('/api/auth/logout', { refresh_token: legacyRefreshToken }, { auth: false });
  }
}

/** Ends every session of the signed-in user, this one included; the server clears the cookies. */
export function endAllSessions() {
  return api.post('/api/auth/logout-all');
}
