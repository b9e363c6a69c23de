import { createHmac, timingSafeEqual } from 'node:crypto';

/** The key CSRF tokens are made with, derived from the token-signing secret (one secret to manage). */
export function csrfKeyFrom(secret: string | Buffer): Buffer {
  return createHmac('sha256', secret).update('updown csrf key v1').digest();
}

/**
 * The CSRF token of a session's cookie form (the edge sets the cookies, see the gateway's
 * session-cookies.ts): an HMAC of the session id under a key only the platform has, so it cannot be
 * made up, holds across rotations, and one session's token is worthless for another.
 */
export function csrfToken(key: Buffer, sessionId: string): string {
  return createHmac('sha256', key).update(sessionId).digest('base64url');
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfMatches(key: Buffer, sessionId: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(csrfToken(key, sessionId));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
