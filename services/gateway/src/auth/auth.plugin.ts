import fastifyCookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import { createVerifier, type VerifierOptions } from 'fast-jwt';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import {
  DomainError,
  systemClock,
  type Clock,
  type ConfigOf,
  type Database,
  type Logger,
  type Registry,
  type RuntimeConfig,
} from '@updown/runtime';
import type { authConfigSpec } from './auth.config';
import {
  type AuthUser,
  createGoogleVerifier,
  csrfKeyFrom,
  EndedSessions,
  isAdminUrl,
  PasswordHasher,
  securityMetrics,
  type TokenClaims,
  type TokenSigner,
} from '@updown/accounts';
import type { AuthContext } from './auth.context';
import { createAuthHooks, type AuthHook } from './auth.hooks';
import { authRoutes } from './auth.routes';
import { accountOpener } from './open-account.handler';
import { resolveJwtSecret } from './jwt-secret';
import { securityRoutes } from './security.routes';
import { twoFactorRoutes } from './two-factor.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Requires a valid access token (401 otherwise; a two-factor token is refused); sets `request.user`. */
    authenticate: AuthHook;
    /** Sets `request.user` when a valid access token is sent; read it with `optionalUser(request)`. */
    authenticateOptional: AuthHook;
    /** 401 without a valid access token, 403 unless the caller's current role is admin. */
    requireAdmin: AuthHook;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: AuthUser;
  }
}

export const AUTH_PLUGIN_NAME = 'updown-auth';
const TOKEN_ISSUER = 'updown';
/**
 * The verifier checks `exp` and `iss` only when present: require them, so a token without an
 * expiry (which would never expire) or without our issuer is refused.
 */
const VERIFY_OPTIONS = {
  algorithms: ['HS256'],
  allowedIss: TOKEN_ISSUER,
  requiredClaims: ['iss', 'exp'],
} satisfies Partial<VerifierOptions>;

/** What the plugin reads of the gateway's configuration: the auth variables and two of every process's. */
export type AuthPluginConfig = Pick<
  ConfigOf<typeof authConfigSpec> & Pick<RuntimeConfig, 'UPDOWN_ENV' | 'DATA_DIR'>,
  | 'UPDOWN_ENV'
  | 'DATA_DIR'
  | 'JWT_SECRET'
  | 'ACCESS_TOKEN_TTL_SEC'
  | 'REFRESH_TOKEN_TTL_SEC'
  | 'REFRESH_TOKEN_REUSE_GRACE_SEC'
  | 'GOOGLE_CLIENT_ID'
  | 'GOOGLE_JWKS_URL'
  | 'AUTH_FREE_FAILURES'
  | 'AUTH_DELAY_BASE_SEC'
  | 'AUTH_DELAY_MAX_SEC'
  | 'AUTH_ADDRESS_MAX_FAILURES'
  | 'AUTH_ACCOUNT_MAX_FAILURES'
  | 'AUTH_THROTTLE_WINDOW_SEC'
  | 'AUTH_IP_RATE_MAX'
  | 'AUTH_IP_RATE_WINDOW_SEC'
>;

export interface AuthPluginDeps {
  readonly db: Kysely<Database>;
  readonly config: AuthPluginConfig;
  readonly logger: Logger;
  /** Defaults to the system clock; tests pass a `ManualClock` to step through TOTP periods. */
  readonly clock?: Clock;
  readonly hasher?: PasswordHasher;
  /** Where the security counters go; a private registry when absent (tests). */
  readonly registry?: Registry;
  /** How often sessions ended by other processes are read; 1 s unless a test wants otherwise. */
  readonly endedSessionsSyncMs?: number;
}

const ENDED_SESSIONS_SYNC_MS = 1000;

/**
 * Accounts and sessions for the gateway: pass the result in `deps.plugins` of `buildApp` /
 * `startGateway`, before any plugin whose routes use the decorators. It registers `@fastify/jwt`,
 * the decorators `authenticate`, `authenticateOptional` and `requireAdmin` on the root instance
 * (fastify-plugin, so later plugins see them), the guard that puts `requireAdmin` on every
 * `/api/admin/*` route, and the `/api/auth/*` and `/api/2fa/*` routes.
 */
export function createAuthPlugin(deps: AuthPluginDeps): FastifyPluginAsync {
  return fp(
    async (app) => {
      const { config, logger } = deps;
      const secret = await resolveJwtSecret(config, logger);
      await app.register(fastifyJwt, {
        secret,
        sign: { algorithm: 'HS256', iss: TOKEN_ISSUER },
        verify: VERIFY_OPTIONS,
      });
      const ctx = await authContext(deps, jwtSigner(app, secret), secret);
      await ctx.endedSessions.start();
      app.addHook('onClose', async () => ctx.endedSessions.stop());
      const hooks = createAuthHooks(ctx);
      app.decorate('authenticate', hooks.authenticate);
      app.decorate('authenticateOptional', hooks.authenticateOptional);
      app.decorate('requireAdmin', hooks.requireAdmin);
      app.addHook('onRoute', (route) => guardAdminRoute(route, hooks.requireAdmin));

      await app.register(async (scope) => {
        // Cookies are read only by the auth routes (the refresh cookie's path is /api/auth).
        await scope.register(fastifyCookie);
        await scope.register(rateLimit, {
          global: false,
          errorResponseBuilder: (_request, context) =>
            new DomainError('RATE_LIMITED', `Too many requests; try again in ${context.after}`),
        });
        // One counter per client IP shared by every auth route (not one per route): the ceiling
        // is on auth traffic as a whole.
        const limit = scope.rateLimit({
          max: config.AUTH_IP_RATE_MAX,
          timeWindow: config.AUTH_IP_RATE_WINDOW_SEC * 1000,
        }) as AuthHook;
        await scope.register(authRoutes(ctx, hooks, limit));
        await scope.register(twoFactorRoutes(ctx, hooks, limit));
        await scope.register(securityRoutes(ctx, hooks, limit));
      });
    },
    { name: AUTH_PLUGIN_NAME, fastify: '5.x' },
  );
}

async function authContext(
  deps: AuthPluginDeps,
  signer: TokenSigner,
  secret: string | Buffer,
): Promise<AuthContext> {
  const { config, logger } = deps;
  const hasher = deps.hasher ?? new PasswordHasher();
  await hasher.warm();
  if (config.GOOGLE_CLIENT_ID === undefined)
    logger.info('Google sign-in is off: GOOGLE_CLIENT_ID is not set');
  const clock = deps.clock ?? systemClock;
  const csrfKey = csrfKeyFrom(secret);
  return {
    db: deps.db,
    clock,
    logger,
    hasher,
    signer,
    metrics: securityMetrics(deps.registry),
    endedSessions: new EndedSessions({
      db: deps.db,
      clock,
      logger,
      accessTokenTtlSec: config.ACCESS_TOKEN_TTL_SEC,
      syncMs: deps.endedSessionsSyncMs ?? ENDED_SESSIONS_SYNC_MS,
    }),
    csrfKey,
    cookiePolicy: {
      // `Secure` everywhere but development and test, which serve plain http on localhost.
      secure: config.UPDOWN_ENV !== 'development' && config.UPDOWN_ENV !== 'test',
      maxAgeSec: config.REFRESH_TOKEN_TTL_SEC,
      csrfKey,
    },
    openAccount: accountOpener(deps.db),
    policy: {
      accessTokenTtlSec: config.ACCESS_TOKEN_TTL_SEC,
      refreshTokenTtlSec: config.REFRESH_TOKEN_TTL_SEC,
      refreshReuseGraceSec: config.REFRESH_TOKEN_REUSE_GRACE_SEC,
      throttle: {
        freeFailures: config.AUTH_FREE_FAILURES,
        delayBaseMs: config.AUTH_DELAY_BASE_SEC * 1000,
        delayMsMax: config.AUTH_DELAY_MAX_SEC * 1000,
        addressFailuresMax: config.AUTH_ADDRESS_MAX_FAILURES,
        accountFailuresMax: config.AUTH_ACCOUNT_MAX_FAILURES,
        windowMs: config.AUTH_THROTTLE_WINDOW_SEC * 1000,
      },
    },
    google:
      config.GOOGLE_CLIENT_ID === undefined
        ? undefined
        : createGoogleVerifier({ clientId: config.GOOGLE_CLIENT_ID, jwksUrl: config.GOOGLE_JWKS_URL }),
  };
}

/** Verified tokens remembered at most; a trader sends the same access token for its whole life. */
const VERIFIED_TOKENS_MAX = 10_000;

interface DatedClaims {
  readonly exp?: unknown;
  readonly nbf?: unknown;
}

/** fast-jwt's own rule, against the injected clock: valid up to and including `exp`, from `nbf`. */
function withinDates(claims: DatedClaims, nowMs: number): boolean {
  if (typeof claims.exp !== 'number' || nowMs > claims.exp * 1000) return false;
  return claims.nbf === undefined || (typeof claims.nbf === 'number' && nowMs >= claims.nbf * 1000);
}

/**
 * Tokens are checked against the injected clock, the same clock that stamps them, so tests can
 * move time and production has one notion of "now". One verifier, built here with the options
 * @fastify/jwt verifies with, checks the signature, algorithm, issuer and required claims
 * (@fastify/jwt's `verify` with a per-call `clockTimestamp` builds a new verifier and key object
 * each time); the dates are checked on every call.
 *
 * A token whose signature checked out is remembered by its exact text, so the next request with it
 * skips the HMAC and the decoding: the same bytes under the same key get the same verdict. Its
 * dates are still checked on every request, and an ended session is refused by the hooks whatever
 * this says. The oldest entry goes when the map is full.
 */
function jwtSigner(app: FastifyInstance, secret: string): TokenSigner {
  const verifySigned = createVerifier({
    ...VERIFY_OPTIONS,
    key: secret,
    ignoreExpiration: true,
    ignoreNotBefore: true,
  });
  const verified = new Map<string, DatedClaims>();
  return {
    sign: (claims) => app.jwt.sign(claims),
    verify(token, nowMs) {
      let claims = verified.get(token);
      if (claims === undefined) {
        try {
          claims = verifySigned(token) as DatedClaims;
        } catch {
          return undefined;
        }
        if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, claims);
      }
      if (withinDates(claims, nowMs)) return claims;
      verified.delete(token);
      return undefined;
    },
  };
}

type Hooks = RouteOptions['onRequest'];

function withoutHook(hooks: Hooks | RouteOptions['preHandler'], hook: AuthHook): AuthHook[] {
  const list = (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]) as AuthHook[];
  return list.filter((existing) => existing !== hook);
}

/**
 * Every `/api/admin/*` route requires an admin, whether or not its author remembered: the check
 * is put first in its `onRequest` hooks (so it runs before the body is even parsed) and the route
 * is documented as needing a bearer token.
 */
function guardAdminRoute(route: RouteOptions, requireAdmin: AuthHook): void {
  if (!isAdminUrl(route.url)) return;
  route.onRequest = [requireAdmin, ...withoutHook(route.onRequest, requireAdmin)] as Hooks;
  const preHandler = withoutHook(route.preHandler, requireAdmin);
  route.preHandler = (preHandler.length > 0 ? preHandler : undefined) as RouteOptions['preHandler'];
  if (route.schema && route.schema.security === undefined) {
    route.schema = { ...route.schema, security: [{ bearerAuth: [] }] };
  }
}
