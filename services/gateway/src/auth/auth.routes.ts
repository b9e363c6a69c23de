import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ChangePasswordRequest,
  CsrfHeaders,
  GoogleLoginRequest,
  LoginRequest,
  LoginResponse,
  RefreshCookies,
  RefreshHeaders,
  RefreshTokenBody,
  RefreshTokenQuery,
  RegisterRequest,
  SessionFormHeaders,
  SessionsEndedResponse,
  StatusOkResponse,
  TokenPairResponse,
  UserResponse,
} from '@updown/schemas/api';
import { errorResponses } from '../http/responses';
import type { AuthContext } from './auth.context';
import {
  changePassword,
  endAllSessions,
  endSession,
  findUserById,
  googleLogin,
  MissingRefreshToken,
  passwordLogin,
  type PresentedRefreshToken,
  refreshSession,
  registerUser,
  type SessionTokens,
  type SignInResult,
  Unauthenticated,
  type UserRow,
} from '@updown/accounts';
import type { AuthHook, AuthHooks } from './auth.hooks';
import { clientOf } from './client-info';
import {
  clearSessionCookies,
  presentedCsrf,
  refreshCookie,
  setSessionCookies,
  wantsCookieForm,
} from './session-cookies';

export function userView(user: UserRow): UserResponse {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    twofa_enabled: user.twofa_enabled,
  };
}

const tags = ['auth'];

/**
 * The refresh token of a refresh or logout: from the JSON body (the form to use: URLs land in
 * access logs and proxies), the query string (the spec's form), or the session cookie (browsers;
 * then the CSRF header must match). Two body/query tokens that differ are refused rather than
 * guessed; a token sent explicitly wins over the cookie (it is what the client meant).
 */
export function presentedRefreshToken(request: FastifyRequest): PresentedRefreshToken {
  const body = request.body as { refresh_token?: string } | null | undefined;
  const query = request.query as { refresh_token?: string | undefined };
  const fromBody = body?.refresh_token ?? undefined;
  const fromQuery = query.refresh_token;
  if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery) {
    throw new MissingRefreshToken(
      'refresh_token differs between the body and the query string; send it once, in the body',
    );
  }
  const explicit = fromBody ?? fromQuery;
  if (explicit !== undefined) return { token: explicit, fromCookie: false };
  const cookie = refreshCookie(request);
  if (cookie !== undefined) return { token: cookie, fromCookie: true, csrf: presentedCsrf(request) };
  throw new MissingRefreshToken(
    'refresh_token is required, in the JSON body {"refresh_token": "..."} (or, from a browser, the session cookie with its X-CSRF-Token header)',
  );
}

/**
 * A started or renewed session as the client asked for it: in the body, or (`X-Updown-Session:
 * cookie`, or a refresh that came by cookie) as cookies with an empty `refresh_token` in the body,
 * so no script ever holds the refresh token.
 */
export function sessionAnswer<T extends SessionTokens | SignInResult>(
  ctx: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  session: T,
  cameByCookie = false,
): Omit<T, 'session_id'> {
  const { session_id: sessionId, ...answer } = session;
  if (sessionId === undefined || !(cameByCookie || wantsCookieForm(request))) return answer;
  setSessionCookies(reply, ctx.cookiePolicy, { refreshToken: answer.refresh_token, sessionId });
  return { ...answer, refresh_token: '' };
}

/** Refresh and logout take the token in the body, in the query string (the spec's form), or by cookie. */
const refreshTokenInput = {
  // Null: no body at all (the query or cookie form). The document shows the body as optional (see docs.ts).
  body: Type.Union([RefreshTokenBody, Type.Null()]),
  querystring: RefreshTokenQuery,
  cookies: RefreshCookies,
  description:
    'Send the refresh token in the JSON body `{"refresh_token": "..."}`. The query form `?refresh_token=` is accepted for clients that cannot send a body, but a URL lands in access logs and proxies. Both at once must be equal. Browsers send neither: the `updown_refresh` cookie goes by itself, and must come with the header `X-CSRF-Token` holding the value of the `updown_csrf` cookie (403 `CSRF_REJECTED` otherwise, and nothing changes).',
};

const COOKIE_FORM_NOTE =
  ' With the header `X-Updown-Session: cookie` (browsers) the refresh token is set as the HttpOnly cookie `updown_refresh` (Path=/api/auth, SameSite=Strict) with its CSRF token in the cookie `updown_csrf`, and `refresh_token` in the body is empty.';

/** `/api/auth/*` (product spec §7 "Authentication"). `limit` is the shared per-IP ceiling. */
export function authRoutes(ctx: AuthContext, hooks: AuthHooks, limit: AuthHook): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api/auth/register',
      {
        onRequest: [limit],
        schema: {
          tags,
          summary: 'Create an account (with 10,000.00 on demo)',
          body: RegisterRequest,
          response: { 201: UserResponse, ...errorResponses(400, 409, 429) },
        },
      },
      async (request, reply) => {
        const user = await registerUser(ctx, request.body);
        return reply.code(201).send(userView(user));
      },
    );

    app.post(
      '/api/auth/login',
      {
        onRequest: [limit],
        schema: {
          tags,
          summary: 'Sign in with email and password',
          description: `Starts a session.${COOKIE_FORM_NOTE} Failed sign-ins are throttled by account and client address (429 \`RATE_LIMITED\` with \`Retry-After\`, the password unchecked). After many failures on one account, an address it never signed in from is answered 429 \`EXTRA_VERIFICATION_REQUIRED\` until the request also carries the account's current authenticator code in \`totp_code\`; with the right password and a fresh code the session starts at once, without the second step.`,
          body: LoginRequest,
          headers: SessionFormHeaders,
          response: { 200: LoginResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request, reply) =>
        sessionAnswer(ctx, request, reply, await passwordLogin(ctx, request.body, clientOf(request))),
    );

    app.post(
      '/api/auth/refresh',
      {
        onRequest: [limit],
        schema: {
          tags,
          summary: 'Exchange a refresh token for a new access token and the next refresh token',
          ...refreshTokenInput,
          headers: RefreshHeaders,
          response: { 200: TokenPairResponse, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (request, reply) => {
        const presented = presentedRefreshToken(request);
        const session = await refreshSession(ctx, presented, clientOf(request));
        return sessionAnswer(ctx, request, reply, session, presented.fromCookie);
      },
    );

    app.post(
      '/api/auth/logout',
      {
        onRequest: [limit],
        schema: {
          tags,
          summary:
            'End the session of a refresh token, and its access tokens at once; answers ok for unknown tokens too',
          ...refreshTokenInput,
          headers: CsrfHeaders,
          response: { 200: StatusOkResponse, ...errorResponses(400, 403, 429) },
        },
      },
      async (request, reply) => {
        const presented = presentedRefreshToken(request);
        await endSession(ctx, presented, clientOf(request));
        if (presented.fromCookie) clearSessionCookies(reply, ctx.cookiePolicy);
        return { status: 'ok' as const };
      },
    );

    app.post(
      '/api/auth/logout-all',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: 'Log out everywhere: end every session of the caller, this one included',
          description:
            'Every refresh token of the account is revoked and every access token is refused from the next request on, in every gateway (within the ended-session sync interval, 1 s, for the others).',
          security: [{ bearerAuth: [] }],
          response: { 200: SessionsEndedResponse, ...errorResponses(401, 429) },
        },
      },
      async (request, reply) => {
        const ended = await endAllSessions(ctx, request.user, clientOf(request));
        clearSessionCookies(reply, ctx.cookiePolicy);
        return { status: 'ok' as const, sessions_ended: ended };
      },
    );

    app.post(
      '/api/auth/password',
      {
        onRequest: [limit, hooks.authenticate],
        schema: {
          tags,
          summary: "Change the caller's password; every other session ends",
          description:
            "Needs the current password (wrong ones are throttled like sign-ins) and, when two-factor is on, `totp_code` (400 `TWO_FACTOR_CODE_REQUIRED` without it): they are this request's step-up. The session that asks continues; every other session of the account ends, its access tokens included.",
          security: [{ bearerAuth: [] }],
          body: ChangePasswordRequest,
          response: { 200: SessionsEndedResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request) => {
        const ended = await changePassword(ctx, request.user, request.body, clientOf(request));
        return { status: 'ok' as const, sessions_ended: ended };
      },
    );

    app.get(
      '/api/auth/me',
      {
        onRequest: [hooks.authenticate],
        schema: {
          tags,
          summary: 'The signed-in user',
          security: [{ bearerAuth: [] }],
          response: { 200: UserResponse, ...errorResponses(401) },
        },
      },
      async (request) => {
        const user = await findUserById(ctx.db, request.user.id);
        if (!user) throw new Unauthenticated('Account no longer exists');
        return userView(user);
      },
    );

    app.post(
      '/api/auth/google-login',
      {
        onRequest: [limit],
        schema: {
          tags,
          summary: 'Sign in (or sign up) with a Google ID token',
          description: `Starts a session.${COOKIE_FORM_NOTE}`,
          body: GoogleLoginRequest,
          headers: SessionFormHeaders,
          response: { 200: LoginResponse, ...errorResponses(400, 401, 409, 429, 501) },
        },
      },
      async (request, reply) =>
        sessionAnswer(ctx, request, reply, await googleLogin(ctx, request.body, clientOf(request))),
    );
  };
}
