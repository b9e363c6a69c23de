import { addressKey } from './sign-in-throttle.domain';

/**
 * The rules of an account's security: how long a step-up lasts, which client a refresh token
 * belongs to, and what the owner is told of each security event. Pure: no clock, no I/O.
 */

/** A password (and code) check lets sensitive actions through for this long on its session. */
export const STEP_UP_TTL_MS = 5 * 60 * 1000;

/** Whether the session's last step-up, if any, still covers an action at `now`. */
export function isStepUpFresh(stepUpAtMs: number | null, now: number): boolean {
  return stepUpAtMs !== null && stepUpAtMs <= now && now - stepUpAtMs < STEP_UP_TTL_MS;
}

/**
 * The network a client is in, coarse enough that one device keeps it between two requests a few
 * seconds apart: an IPv4 address by its /24, an IPv6 address by its /64 (what one host is
 * routinely given), an IPv4-mapped IPv6 address as IPv4.
 */
export function addressPrefix(address: string): string {
  const key = addressKey(address);
  const octets = /^(\d+)\.(\d+)\.(\d+)\.\d+$/.exec(key);
  return octets ? `${octets[1]}.${octets[2]}.${octets[3]}.0/24` : key;
}

/**
 * The client a refresh token is issued to: its address prefix and a digest of its user agent. The
 * cookie and its CSRF token are not part of it: whoever copies one from a browser copies both.
 */
export function clientBinding(address: string, userAgentDigest: string): string {
  return `${addressPrefix(address)} ${userAgentDigest}`;
}

/** Two bindings name the same client; an unknown one (a token from before bindings) never does. */
export function sameClient(issuedTo: string | null, presentedBy: string): boolean {
  return issuedTo !== null && issuedTo === presentedBy;
}

export const SECURITY_EVENT_KINDS = [
  'sign_in',
  'sign_in_failures',
  'two_factor_enabled',
  'two_factor_disabled',
  'password_changed',
  'session_ended',
  'all_sessions_ended',
  'refresh_token_reused',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** What the owner (and an admin) reads for each event: one sentence, the same in every view. */
export const SECURITY_EVENT_TEXT: Readonly<Record<SecurityEventKind, string>> = {
  sign_in: 'Signed in',
  sign_in_failures: 'Several failed sign-ins in a row',
  two_factor_enabled: 'Two-factor authentication turned on',
  two_factor_disabled: 'Two-factor authentication turned off',
  password_changed: 'Password changed',
  session_ended: 'Session ended',
  all_sessions_ended: 'Signed out everywhere',
  refresh_token_reused: 'A sign-in token was used twice, so we signed you out everywhere',
};

/**
 * A burst of failed sign-ins is told once, when the failures on one address reach the number the
 * throttle lets through free: the owner hears of a guessing run, not of every typo.
 */
export function isFailureBurst(pairFailures: number, freeFailures: number): boolean {
  return pairFailures === Math.max(1, freeFailures);
}
