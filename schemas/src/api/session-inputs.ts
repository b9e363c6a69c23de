import { Type } from '@sinclair/typebox';

/**
 * The headers and the cookie a browser's session travels in (the gateway's `session-cookies.ts`),
 * declared on the operations that read them so a generated client sends them by name. The
 * headers are validated as what they are, any text: a value other than the ones described is not
 * refused, it only leaves the body form in place (or fails the CSRF check, 403). Header names are
 * lower case, as Node.js hands them over and as `idempotency-key` is.
 */

const SessionForm = Type.String({
  description:
    '`cookie` (browsers): the session is answered as the HttpOnly cookie `updown_refresh` (Path=/api/auth, SameSite=Strict) with its CSRF token in the cookie `updown_csrf`, and `refresh_token` in the body is empty. Absent, or any other value: the refresh token is in the body.',
});

const CsrfToken = Type.String({
  description:
    'The value of the `updown_csrf` cookie. Required when the refresh token comes in the `updown_refresh` cookie (403 `CSRF_REJECTED` otherwise, and nothing changes); not read otherwise.',
});

/** Sign-ins: login, two-factor verify, Google login. */
export const SessionFormHeaders = Type.Object({ 'x-updown-session': Type.Optional(SessionForm) });

/** Refresh: the cookie form is asked for, or kept when the token came by cookie. */
export const RefreshHeaders = Type.Object({
  'x-updown-session': Type.Optional(SessionForm),
  'x-csrf-token': Type.Optional(CsrfToken),
});

/** Logout: a token that came by cookie needs its CSRF header. */
export const CsrfHeaders = Type.Object({ 'x-csrf-token': Type.Optional(CsrfToken) });

/** Not validated by Fastify (it has no cookie schema): the handler reads it, for the document. */
export const RefreshCookies = Type.Object({
  updown_refresh: Type.Optional(
    Type.String({
      description:
        "The browser's refresh token, set by a sign-in with `X-Updown-Session: cookie`. Used when neither the body nor the query carries `refresh_token`, and only with `X-CSRF-Token`.",
    }),
  ),
});
