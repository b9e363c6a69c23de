import type { Kysely } from 'kysely';
import type { Clock, Database, Logger } from '@updown/runtime';
import type { TokenClaims } from './auth.domain';
import type { EndedSessions } from './ended-sessions';
import type { GoogleVerifier } from './google-verifier';
import type { PasswordHasher } from './password';
import type { SecurityMetrics } from './security.metrics';
import type { NewUser, UserRow } from './users.repository';
import type { ThrottlePolicy } from './sign-in-throttle.domain';

/** Signs and checks the platform's own JWTs; the gateway puts `@fastify/jwt` behind it (its auth.plugin.ts). */
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

/**
 * Opens an account: the user row (`createUser`) and whatever else an account starts with, in one
 * transaction. Accounts sit below the wallet, so the composition root supplies it (the gateway's
 * open-account.handler.ts: `createUser`, then the wallet's `openWallet`).
 */
export type OpenAccount = (user: NewUser) => Promise<UserRow>;

/** What the account and session commands need, built once by the edge that serves them. */
export interface AccountsContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly hasher: PasswordHasher;
  readonly signer: TokenSigner;
  readonly policy: AuthPolicy;
  /** The sessions ended lately, whose access tokens are refused (see ended-sessions.ts). */
  readonly endedSessions: EndedSessions;
  /** The key of the cookie form's CSRF tokens (see csrf.ts). */
  readonly csrfKey: Buffer;
  readonly openAccount: OpenAccount;
  /** Refresh-token reuse and step-up outcomes, for operators. */
  readonly metrics: SecurityMetrics;
  /** Absent when `GOOGLE_CLIENT_ID` is unset: Google sign-in answers 501. */
  readonly google: GoogleVerifier | undefined;
}
