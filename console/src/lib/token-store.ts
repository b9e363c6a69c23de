/**
 * The session's tokens in localStorage under the keys the spec names (`access_token`,
 * `refresh_token`, `user_id`). Listeners hear every change so the session can follow a logout that
 * happens deep inside the API client (a failed refresh).
 */
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  userId: 'user_id',
} as const;

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

export const tokenStore = {
  accessToken(): string | null {
    return localStorage.getItem(STORAGE_KEYS.accessToken);
  },
  refreshToken(): string | null {
    return localStorage.getItem(STORAGE_KEYS.refreshToken);
  },
  userId(): string | null {
    return localStorage.getItem(STORAGE_KEYS.userId);
  },
  setTokens(accessToken: string, refreshToken: string): void {
    localStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
    localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
    notify();
  },
  setUserId(userId: string): void {
    localStorage.setItem(STORAGE_KEYS.userId, userId);
  },
  clear(): void {
    localStorage.removeItem(STORAGE_KEYS.accessToken);
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    localStorage.removeItem(STORAGE_KEYS.userId);
    notify();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
