/**
 * The rules of accounts and sessions, as pure functions: what a valid email, name and password
 * are; whether a TOTP time step may be used; what to do with a presented refresh token; which
 * claims tokens carry and what they must contain (the sign-in throttle's rules are in
 * `sign-in-throttle.domain.ts`). Time comes in as an argument; nothing here touches the database,
 * the clock, randomness or the environment.
 */

import {
  EMAIL_LENGTH_MAX,
  EMAIL_PATTERN,
  NAME_LENGTH_MAX,
  PASSWORD_LENGTH_MAX,
  PASSWORD_LENGTH_MIN,
} from '@updown/schemas/api';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What an authenticated route knows about its caller: `request.user`. */
export interface AuthUser {
  readonly id: string;
  readonly role: Role;
  /**
   * The session an access token belongs to (the family of refresh tokens its sign-in started):
   * logging out ends it, and its access tokens with it. Absent for a two-factor token.
   */
  readonly sessionId?: string;
}

// The account rules are stated once, in the registration schema (so the OpenAPI document shows
// them); these checks apply the same constants where no HTTP request is involved.
export { EMAIL_LENGTH_MAX, NAME_LENGTH_MAX, PASSWORD_LENGTH_MAX, PASSWORD_LENGTH_MIN };

/** How long the token returned by a login that still needs a second factor lives. */
export const TWO_FACTOR_TOKEN_TTL_SEC = 5 * 60;
export const TOTP_PERIOD_SEC = 30;

export type Check = { readonly ok: true } | { readonly ok: false; readonly message: string };

const OK: Check = { ok: true };
const fail = (message: string): Check => ({ ok: false, message });

export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

const EMAIL_SHAPE = new RegExp(EMAIL_PATTERN, 'u');

export function validateEmail(email: string): Check {
  if (email.length < 3 || email.length > EMAIL_LENGTH_MAX || !EMAIL_SHAPE.test(email)) {
    return fail('Enter a valid email address');
  }
  return OK;
}

/** Trims and collapses runs of whitespace, so "  Ada   Lovelace " is stored as "Ada Lovelace". */
export function normaliseName(raw: string): string {
  return raw.trim().replace(/\s+/g, ' ');
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function validateName(name: string): Check {
  if (name.length === 0) return fail('Name is required');
  if ([...name].length > NAME_LENGTH_MAX) return fail(`Name must be at most ${NAME_LENGTH_MAX} characters`);
  if (CONTROL_CHARACTERS.test(name)) return fail('Name contains characters that are not allowed');
  return OK;
}

/** Length is counted in characters (code points), so a passphrase in any script is measured fairly. */
export function checkPassword(password: string): Check {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH_MIN) {
    return fail(`Password must be at least ${PASSWORD_LENGTH_MIN} characters`);
  }
  if (length > PASSWORD_LENGTH_MAX) {
    return fail(`Password must be at most ${PASSWORD_LENGTH_MAX} characters`);
  }
  if (password.trim() === '') return fail('Password cannot be only spaces');
  return OK;
}

/** "Try again in 14 minutes": whole minutes, rounded up, never zero. */
export function retryAfterText(untilMs: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((untilMs - now) / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

const TOTP_CODE = /^\d{6}$/;

export function isTotpCodeShape(code: string): boolean {
  return TOTP_CODE.test(code);
}

/**
 * A TOTP code is accepted once: its time step must be later than the last step this user has
 * used. Refusing equal steps stops a replay of the same code; refusing earlier ones stops a code
 * from the tolerance window being used after a newer one.
 */
export function isFreshTotpStep(lastUsedStep: number | null, step: number): boolean {
  return lastUsedStep === null || step > lastUsedStep;
}

export interface RefreshTokenState {
  readonly expiresAt: number;
  readonly rotatedAt: number | null;
  readonly revokedAt: number | null;
  /**
   * For a rotated token: whether the token that replaced it is still unexchanged and unrevoked, that
   * is, whether its answer may never have arrived. False for a token not rotated.
   */
  readonly successorUnused: boolean;
  /**
   * For a rotated token with an unused successor: whether the client presenting it again is the
   * one the successor was issued to (`sameClient` in security.domain.ts). False otherwise.
   */
  readonly presentedBySuccessorsClient: boolean;
}

export type RefreshDecision =
  | { readonly action: 'rotate' }
  | { readonly action: 'reissue' }
  | { readonly action: 'reject'; readonly reason: 'unknown' | 'revoked' | 'expired' }
  | { readonly action: 'revoke_family'; readonly reason: 'reuse' | 'reuse_by_other_client' };

/**
 * What to do with a presented refresh token. A token that was already exchanged is proof that it
 * was copied (only one party can hold the live one), so its whole family, every token descended
 * from the same login, is revoked: the thief and the victim are both signed out, and the victim
 * signs in again. This is checked before expiry so an old stolen token still raises the alarm.
 *
 * One exception, for answers that never arrived: within `graceMs` of its rotation, a token whose
 * successor has not been used yet is exchanged again (`reissue`: the unused successor is retired and
 * a new one issued). A browser that left the page while its refresh was in flight, or two tabs that
 * refreshed with the same cookie at once, never received or kept the successor, and would otherwise
 * be signed out as thieves. Theft is still caught: whoever holds the retired successor presents a
 * spent token with no unused successor, and the family is revoked. The exception holds only for
 * the client the successor was issued to (same address prefix and user agent): a thief replaying a
 * copied token inside the grace from anywhere else is treated as the theft it is.
 */
export function decideRefresh(
  token: RefreshTokenState | undefined,
  now: number,
  graceMs: number,
): RefreshDecision {
  if (token === undefined) return { action: 'reject', reason: 'unknown' };
  if (token.revokedAt !== null) return { action: 'reject', reason: 'revoked' };
  if (token.rotatedAt !== null) {
    if (!token.successorUnused || now - token.rotatedAt >= graceMs) {
      return { action: 'revoke_family', reason: 'reuse' };
    }
    return token.presentedBySuccessorsClient
      ? { action: 'reissue' }
      : { action: 'revoke_family', reason: 'reuse_by_other_client' };
  }
  if (now >= token.expiresAt) return { action: 'reject', reason: 'expired' };
  return { action: 'rotate' };
}

export type TokenType = 'access' | '2fa';

export interface AccessClaims {
  readonly sub: string;
  readonly role: Role;
  readonly typ: 'access';
  /** The session id: checked against the ended sessions on every request. */
  readonly sid: string;
  readonly iat: number;
  readonly exp: number;
}

export interface TwoFactorClaims {
  readonly sub: string;
  readonly typ: '2fa';
  readonly iat: number;
  readonly exp: number;
}

export type TokenClaims = AccessClaims | TwoFactorClaims;

export function accessClaims(user: AuthUser, sessionId: string, nowMs: number, ttlSec: number): AccessClaims {
  const iat = Math.floor(nowMs / 1000);
  return { sub: user.id, role: user.role, typ: 'access', sid: sessionId, iat, exp: iat + ttlSec };
}

export function twoFactorClaims(userId: string, nowMs: number): TwoFactorClaims {
  const iat = Math.floor(nowMs / 1000);
  return { sub: userId, typ: '2fa', iat, exp: iat + TWO_FACTOR_TOKEN_TTL_SEC };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Reads the caller from the claims of a token whose signature and expiry were already verified.
 * A token of another type (a two-factor token on an ordinary route, or the reverse) is refused, and
 * so is an access token without a session id (issued before sessions could be ended one by one):
 * it could not be ended by a logout, and the client's refresh replaces it.
 */
export function callerFromClaims(claims: unknown, expected: TokenType): AuthUser | undefined {
  if (typeof claims !== 'object' || claims === null) return undefined;
  const { sub, typ, role, sid } = claims as Record<string, unknown>;
  if (typ !== expected || typeof sub !== 'string' || !UUID.test(sub)) return undefined;
  if (expected === '2fa') return { id: sub, role: 'user' };
  if (typeof sid !== 'string' || !UUID.test(sid)) return undefined;
  return isRole(role) ? { id: sub, role, sessionId: sid } : undefined;
}

export interface GoogleIdentity {
  readonly sub: string;
  readonly email: string;
  readonly name: string;
}

/**
 * The identity in a Google ID token whose signature, issuer, audience and expiry were verified.
 * Only a verified email is accepted, since the email is what links the sign-in to an account. The
 * name comes from the token, then from the request body, then from the email's local part.
 */
export function googleIdentity(
  claims: Readonly<Record<string, unknown>>,
  fallbackName: string | undefined,
): { ok: true; identity: GoogleIdentity } | { ok: false; message: string } {
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  if (typeof claims.sub !== 'string' || claims.sub === '' || claims.sub.length > 255) {
    return { ok: false, message: 'Google token has no subject' };
  }
  if (typeof claims.email !== 'string' || !verified) {
    return { ok: false, message: 'Google account email is not verified' };
  }
  const email = normaliseEmail(claims.email);
  if (!validateEmail(email).ok) return { ok: false, message: 'Google account email is not usable' };
  const candidates = [claims.name, fallbackName, email.split('@')[0]];
  let name = '';
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    const normalised = normaliseName(candidate);
    if (validateName(normalised).ok) {
      name = normalised;
      break;
    }
  }
  if (name === '') name = 'Trader';
  return { ok: true, identity: { sub: claims.sub, email, name } };
}

export type AdminBootstrap = 'create' | 'already_admin' | 'exists_not_admin';

/**
 * What start-up does with `ADMIN_EMAIL`: create the admin when absent; otherwise change nothing,
 * because silently resetting a password or promoting an existing account from the environment
 * would let whoever edits the deployment take an account over. The CLI does that explicitly.
 */
export function decideAdminBootstrap(existing: { readonly role: Role } | undefined): AdminBootstrap {
  if (existing === undefined) return 'create';
  return existing.role === 'admin' ? 'already_admin' : 'exists_not_admin';
}

/** Whether a route URL belongs to the admin area, which always requires the admin role. */
export function isAdminUrl(url: string): boolean {
  return url === '/api/admin' || url.startsWith('/api/admin/');
}
