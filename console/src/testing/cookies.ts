import { CSRF_COOKIE } from '../lib/session-cookie';

/** What the server's cookie answer leaves readable by script: the CSRF cookie of a cookie session. */
export function setCsrfCookie(value: string): void {
  document.cookie = `${CSRF_COOKIE}=${encodeURIComponent(value)}; path=/`;
}

/** Removes the CSRF cookie, as the server's logout and a test's clean-up do. */
export function clearCsrfCookie(): void {
  document.cookie = `${CSRF_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}
