import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { InvalidGoogleToken } from './auth.errors';

/** Google signs ID tokens with either form of its issuer (OpenID Connect discovery document). */
export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/** Checks a Google ID token; `verify` answers its claims or throws `InvalidGoogleToken`. */
export interface GoogleVerifier {
  verify(idToken: string, nowMs: number): Promise<Readonly<Record<string, unknown>>>;
}

/** Failures of fetching the key set, not of the token: they are ours (500, logged), not the user's. */
const KEY_SET_FAILURES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID']);

/**
 * OpenID Connect ID token verification (Google's "Verify the integrity of the ID token"): an RS256
 * signature by a key in the JWKS, the issuer, the audience (our client id) and the expiry. Keys are
 * cached and refetched when an unknown key id appears, at most every 30 s; a fetch gives up after 5 s.
 */
export function createGoogleVerifier(options: { clientId: string; jwksUrl: string }): GoogleVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    timeoutDuration: 5_000,
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
  });
  return {
    async verify(idToken, nowMs) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, keys, {
          issuer: GOOGLE_ISSUERS,
          audience: options.clientId,
          algorithms: ['RS256'],
          requiredClaims: ['sub', 'exp', 'iat'],
          currentDate: new Date(nowMs),
          // Google's clock and ours may differ by a few seconds.
          clockTolerance: 30,
        }));
      } catch (error) {
        if (!(error instanceof errors.JOSEError) || KEY_SET_FAILURES.has(error.code)) throw error;
        throw new InvalidGoogleToken(
          error instanceof errors.JWTExpired
            ? 'Google sign-in has expired; please try again'
            : 'Google sign-in could not be verified',
        );
      }
      return payload;
    },
  };
}
