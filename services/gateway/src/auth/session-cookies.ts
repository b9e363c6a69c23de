import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfToken } from '@updown/accounts';

/**
 * The cookie form of a session, for browsers: the refresh token in a cookie no script can read, and
 * a CSRF token that must come back in a header before the cookie is honoured.
 *
 * - `updown_refresh`: the refresh token; `HttpOnly`, `SameSite=Strict`, `Path=/api/auth` (sent to
 *   refresh and logout, nowhere else), `Secure` outside development and test.
 * - `updown_csrf`: the session's CSRF token, readable by the console's script (`Path=/`); the console
 *   echoes it in `X-CSRF-Token`. A page on another site can neither read it nor set the header on
 *   a request to us, so a forged request carries the cookie at most, and the cookie alone does
 *   nothing. The token is an HMAC of the session id under a key only the gateway has: it cannot be
 *   made up, it holds across rotations, and one session's token is worthless for another.
 *
 * A client asks for the cookie form with `X-Updown-Session: cookie` on login, two-factor verify,
 * Google login and refresh; its answers then carry an empty `refresh_token`. Without the header the
 * body form is unchanged, for API clients that are not browsers.
 */
export const REFRESH_COOKIE = 'updown_refresh';
export const CSRF_COOKIE = 'updown_csrf';
export const SESSION_FORM_HEADER = 'x-updown-session';
export const CSRF_HEADER = 'x-csrf-token';
const REFRESH_COOKIE_PATH = '/api/auth';

/** Whether the client asked for the cookie form. */
export function wantsCookieForm(request: FastifyRequest): boolean {
  return request.headers[SESSION_FORM_HEADER] === 'cookie';
}

/** The `X-CSRF-Token` header, when sent once. */
export function presentedCsrf(request: FastifyRequest): string | undefined {
  const value = request.headers[CSRF_HEADER];
  return typeof value === 'string' ? value : undefined;
}

export function refreshCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[REFRESH_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

export interface CookiePolicy {
  readonly secure: boolean;
  readonly maxAgeSec: number;
  readonly csrfKey: Buffer;
}

export function setSessionCookies(
  reply: FastifyReply,
  policy: CookiePolicy,
  session: { refreshToken: string; sessionId: string },
): void {
  const common = { sameSite: 'strict', secure: policy.secure, maxAge: policy.maxAgeSec } as const;
  void reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
    ...common,
    httpOnly: true,
    path: REFRESH_COOKIE_PATH,
  });
  void reply.setCookie(CSRF_COOKIE, csrfToken(policy.csrfKey, session.sessionId), {
    ...common,
    httpOnly: false,
    path: '/',
  });
}

export function clearSessionCookies(reply: FastifyReply, policy: Pick<CookiePolicy, 'secure'>): void {
  const common = { sameSite: 'strict', secure: policy.secure } as const;
  void reply.clearCookie(REFRESH_COOKIE, { ...common, httpOnly: true, path: REFRESH_COOKIE_PATH });
  void reply.clearCookie(CSRF_COOKIE, { ...common, path: '/' });
}
