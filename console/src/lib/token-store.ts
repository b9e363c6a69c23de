/**
 * The session's access token and user id in localStorage under the keys the spec names
 * (`access_token`, `user_id`). The refresh token is not kept here: it lives for 30 days, and
 * anything in localStorage is readable by any script that runs on the page, so the server keeps it
 * in an HttpOnly cookie instead (`session-cookie.ts`). The spec's third key, `refresh_token`, is only
 * read to move a session signed in by an earlier version of the console over to the cookie: the
 * first refresh sends it once and it is then removed. Listeners hear every change of the access
 * token so the session can follow a logout that happens deep inside the API client (a failed
 * refresh).
 */
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  userId: 'user_id',
} as const;

/** Where earlier versions kept the refresh token; never written any more. */
export const LEGACY_REFRESH_TOKEN_KEY = 'refresh_token';

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

export const tokenStore = {
  accessToken(): string | null {
    return localStorage.getItem(STORAGE_KEYS.accessToken);
  },
  userId(): string | null {
    return localStorage.getItem(STORAGE_KEYS.userId);
  },
  setAccessToken(accessToken: string): void {
    localStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
    notify();
  },
  setUserId(userId: string): void {
    localStorage.setItem(STORAGE_KEYS.userId, userId);
  },
  /** A refresh token an earlier version left behind, still to be exchanged for the cookie. */
  legacyRefreshToken(): string | null {
    return localStorage.getItem(LEGACY_REFRESH_TOKEN_KEY);
  },
  /** Called once the server has seen the legacy token: it is spent either way. */
  forgetLegacyRefreshToken(): void {
    localStorage.removeItem(LEGACY_REFRESH_TOKEN_KEY);
  },
  clear(): void {
    localStorage.removeItem(STORAGE_KEYS.accessToken);
    localStorage.removeItem(LEGACY_REFRESH_TOKEN_KEY);
    localStorage.removeItem(STORAGE_KEYS.userId);
    notify();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
