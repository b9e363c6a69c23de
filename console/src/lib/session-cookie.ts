/**
 * The browser form of the session. Calls that start or renew a session carry `X-Updown-Session:
 * cookie`, and the server then sets the refresh token as the HttpOnly cookie `updown_refresh` (sent
 * by the browser to `/api/auth/*` by itself, never readable here) and answers with an empty
 * `refresh_token`. Refresh and logout need the `updown_csrf` cookie's value echoed in
 * `X-CSRF-Token`: a cross-site page can make the browser send the cookie but cannot read it, so the
 * echo proves the request came from this origin.
 */

export const CSRF_COOKIE = 'updown_csrf';

/** Asks the server for the refresh token as a cookie instead of in the body. */
export const COOKIE_SESSION_HEADERS: Readonly<Record<string, string>> = { 'x-updown-session': 'cookie' };

/** A cookie readable by script, from `document.cookie` (`a=1; b=2`), or null when it is not set. */
export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const pair of cookies.split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1 || pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all (a stray `%`): the raw value is what the server set.
      return value;
    }
  }
  return null;
}

/** The CSRF token the server set with the session cookie, if there is a cookie session. */
export function csrfToken(): string | null {
  const token = readCookie(CSRF_COOKIE);
  return token ? token : null;
}

/** The `X-CSRF-Token` header for refresh and logout; empty without a cookie session. */
export function csrfHeaders(): Record<string, string> {
  const token = csrfToken();
  return token ? { 'x-csrf-token': token } : {};
}
