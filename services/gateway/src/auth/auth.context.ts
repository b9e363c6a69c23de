import type { Kysely } from 'kysely';
import type { Clock, Database, Logger } from '@updown/runtime';
import type { TokenClaims } from './auth.domain';
import type { EndedSessions } from './ended-sessions';
import type { GoogleVerifier } from './google-verifier';
import type { PasswordHasher } from './password';
import type { SecurityMetrics } from './security.metrics';
import type { CookiePolicy } from './session-cookies';
import type { ThrottlePolicy } from './sign-in-throttle.domain';

/** Signs and checks the gateway's own JWTs; `@fastify/jwt` behind it (see auth.plugin.ts). */
export interface TokenSigner {
  sign(claims: TokenClaims): string;
  /** The claims of a token with a valid signature that has not expired at `nowMs`, else undefined. */
  verify(token: string, nowMs: number): unknown;
}

export interface AuthPolicy {
  readonly accessTokenTtlSec: number;
  readonly refreshTokenTtlSec: number;
  /** How long a spent token whose successor is unused may be exchanged again (decideRefresh). */
  readonly refreshReuseGraceSec: number;
  readonly throttle: ThrottlePolicy;
}

/** What the account and session handlers need, built once by the plugin. */
export interface AuthContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly hasher: PasswordHasher;
  readonly signer: TokenSigner;
  readonly policy: AuthPolicy;
  /** The sessions ended lately, whose access tokens are refused (see ended-sessions.ts). */
  readonly endedSessions: EndedSessions;
  /** The cookie form's attributes and CSRF key (see session-cookies.ts). */
  readonly cookiePolicy: CookiePolicy;
  /** Refresh-token reuse and step-up outcomes, for operators. */
  readonly metrics: SecurityMetrics;
  /** Absent when `GOOGLE_CLIENT_ID` is unset: Google sign-in answers 501. */
  readonly google: GoogleVerifier | undefined;
}
