import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  GoogleLoginRequest,
  LoginRequest,
  LoginResponse,
  RefreshTokenBody,
  RefreshTokenQuery,
  RegisterRequest,
  StatusOkResponse,
  TokenPairResponse,
  UserResponse,
} from '@updown/schemas/api';
import { errorResponses } from '../http/responses';
import type { AuthContext } from './auth.context';
import { MissingRefreshToken, Unauthenticated } from './auth.errors';
import type { AuthHook, AuthHooks } from './auth.hooks';
import { registerUser } from './accounts.handler';
import { googleLogin } from './google-login.handler';
import { passwordLogin } from './login.handler';
import { endSession, refreshSession } from './sessions.handler';
import { findUserById, type UserRow } from './users.repository';

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
 * access logs and proxies) or the query string (the spec's form). Neither, or two that differ,
 * is refused rather than guessed.
 */
export function presentedRefreshToken(
  body: { refresh_token: string } | null | undefined,
  query: { refresh_token?: string | undefined },
): string {
  const fromBody = body?.refresh_token ?? undefined;
  const fromQuery = query.refresh_token;
  if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery) {
    throw new MissingRefreshToken(
      'refresh_token differs between the body and the query string; send it once, in the body',
    );
  }
  const token = fromBody ?? fromQuery;
  if (token === undefined) {
    throw new MissingRefreshToken('refresh_token is required, in the JSON body {"refresh_token": "..."}');
  }
  return token;
}

/** Refresh and logout take the token in the body, or (the spec's form) in the query string. */
const refreshTokenInput = {
  // Null: no body at all (the query form). The document shows the body as optional (see docs.ts).
  body: Type.Union([RefreshTokenBody, Type.Null()]),
  querystring: RefreshTokenQuery,
  description:
    'Send the refresh token in the JSON body `{"refresh_token": "..."}`. The query form `?refresh_token=` is accepted for clients that cannot send a body, but a URL lands in access logs and proxies. Both at once must be equal.',
};

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
          body: LoginRequest,
          response: { 200: LoginResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request) => passwordLogin(ctx, request.body),
    );

    app.post(
      '/api/auth/refresh',
      {
        onRequest: [limit],
        schema: {
          tags,
          summary: 'Exchange a refresh token for a new access token and the next refresh token',
          ...refreshTokenInput,
          response: { 200: TokenPairResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request) => refreshSession(ctx, presentedRefreshToken(request.body, request.query)),
    );

    app.post(
      '/api/auth/logout',
      {
        onRequest: [limit],
        schema: {
          tags,
          summary: 'End the session of a refresh token; answers ok for unknown tokens too',
          ...refreshTokenInput,
          response: { 200: StatusOkResponse, ...errorResponses(400, 429) },
        },
      },
      async (request) => {
        await endSession(ctx, presentedRefreshToken(request.body, request.query));
        return { status: 'ok' as const };
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
          body: GoogleLoginRequest,
          response: { 200: LoginResponse, ...errorResponses(400, 401, 409, 429, 501) },
        },
      },
      async (request) => googleLogin(ctx, request.body),
    );
  };
}
