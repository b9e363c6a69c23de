import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type AuthUser,
  callerFromClaims,
  findUserRole,
  Forbidden,
  type TokenType,
  Unauthenticated,
} from '@updown/accounts';
import type { AuthContext } from './auth.context';

export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface AuthHooks {
  /** Requires a valid access token; sets `request.user`. A two-factor token is refused. */
  readonly authenticate: AuthHook;
  /** Sets `request.user` when a valid access token is sent; anything else means anonymous. */
  readonly authenticateOptional: AuthHook;
  /** Requires an access token of a user whose current role is admin (401 without, 403 for others). */
  readonly requireAdmin: AuthHook;
  /** Requires the temporary token of a login waiting for its second factor. */
  readonly authenticateTwoFactor: AuthHook;
}

/** Longer than any token we issue; a header beyond it is refused without parsing. */
const BEARER_LENGTH_MAX = 4096;
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > BEARER_LENGTH_MAX) return undefined;
  return BEARER.exec(header)?.[1];
}

/**
 * The hooks later routes use, as `onRequest` (preferred: they run before the body is parsed) or
 * `preHandler`. They are decorators of the root instance, so every plugin registered after the
 * auth plugin has them (`app.authenticate`, ...).
 */
export function createAuthHooks(ctx: AuthContext): AuthHooks {
  function caller(request: FastifyRequest, type: TokenType): AuthUser {
    const token = bearerToken(request);
    if (token === undefined) throw new Unauthenticated('Not authenticated');
    const user = callerFromClaims(ctx.signer.verify(token, ctx.clock.nowMs()), type);
    if (!user) throw new Unauthenticated('Invalid or expired token');
    return user;
  }

  /** An access token's caller, unless its session has ended (logout, everywhere, new password). */
  async function sessionCaller(request: FastifyRequest): Promise<AuthUser> {
    const user = caller(request, 'access');
    if (user.sessionId === undefined || (await ctx.endedSessions.isEnded(user.sessionId))) {
      throw new Unauthenticated('This session has ended; sign in again');
    }
    return user;
  }

  return {
    async authenticate(request) {
      request.user = await sessionCaller(request);
    },
    async authenticateOptional(request) {
      if (bearerToken(request) === undefined) return;
      try {
        request.user = await sessionCaller(request);
      } catch {
        // A stale token on a public route reads as a visitor; public pages must not break on it.
      }
    },
    async requireAdmin(request) {
      const user = await sessionCaller(request);
      // The role is read again: a demoted admin loses access at once, not when the token expires.
      const role = await findUserRole(ctx.db, user.id);
      if (role === undefined) throw new Unauthenticated('Account no longer exists');
      if (role !== 'admin') throw new Forbidden();
      request.user = { ...user, role };
    },
    async authenticateTwoFactor(request) {
      request.user = caller(request, '2fa');
    },
  };
}

/** The caller on a route guarded by `authenticateOptional`: null for a visitor. */
export function optionalUser(request: FastifyRequest): AuthUser | null {
  return (request.user as AuthUser | null | undefined) ?? null;
}
