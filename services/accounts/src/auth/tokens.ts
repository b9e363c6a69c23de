import { createHash, randomBytes } from 'node:crypto';

/** 256 bits: unguessable, so a fast hash is the right way to store it (no salt or KDF needed). */
const REFRESH_TOKEN_BYTES = 32;

export function newRefreshToken(): string {
  return randomBytes(REFRESH_TOKEN_BYTES).toString('base64url');
}

/** What is stored and looked up: the SHA-256 of the token, hex. A database leak yields no usable token. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
