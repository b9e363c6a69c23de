import { DomainError } from '@updown/runtime';

/**
 * The named failures of accounts and sessions. Their codes are mapped to statuses in
 * `http/error-status.ts`; the messages are what the console shows (it reads `detail`).
 */

/**
 * Unknown email and wrong password are one error with one message, so neither is revealed. With an
 * authenticator code sent along, a wrong code is the same error too, so a right password is not.
 */
export class InvalidCredentials extends DomainError {
  constructor(codeSent = false) {
    super(
      'INVALID_CREDENTIALS',
      codeSent ? 'Invalid email, password or authenticator code' : 'Invalid email or password',
    );
    this.name = 'InvalidCredentials';
  }
}

/** No token, a malformed, expired or forged one, or one of the wrong type for the route. */
export class Unauthenticated extends DomainError {
  constructor(message = 'Not authenticated') {
    super('UNAUTHORIZED', message);
    this.name = 'Unauthenticated';
  }
}

/** A refresh or logout without a refresh token, or with two different ones. */
export class MissingRefreshToken extends DomainError {
  constructor(message: string) {
    super('VALIDATION', message);
    this.name = 'MissingRefreshToken';
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'Admin access required') {
    super('FORBIDDEN', message);
    this.name = 'Forbidden';
  }
}

export class InvalidRefreshToken extends DomainError {
  constructor() {
    super('INVALID_REFRESH_TOKEN', 'Invalid or expired refresh token');
    this.name = 'InvalidRefreshToken';
  }
}

export class EmailTaken extends DomainError {
  constructor() {
    super('EMAIL_TAKEN', 'An account with this email already exists');
    this.name = 'EmailTaken';
  }
}

/** An email, name or password that breaks the account rules; the message says which rule. */
export class InvalidAccountDetails extends DomainError {
  constructor(message: string) {
    super('INVALID_ACCOUNT_DETAILS', message);
    this.name = 'InvalidAccountDetails';
  }
}

/**
 * An attempt refused before any check by the sign-in throttle (README "Rate limits"): `pair` is the
 * growing wait of one account on one address, `address` the ceiling of one address across accounts.
 * `retryAfterSec` becomes the `Retry-After` header.
 */
const THROTTLED_MESSAGE = {
  pair: (wait: string) => `Too many failed attempts; try again in ${wait}.`,
  address: (wait: string) => `Too many failed attempts from your network; try again in ${wait}.`,
  account: (wait: string) =>
    `Too many wrong codes for this account; try again in ${wait}, or from a device you have signed in with before.`,
};

export class SignInThrottled extends DomainError {
  constructor(
    scope: 'pair' | 'address' | 'account',
    wait: string,
    readonly retryAfterSec: number,
  ) {
    super('RATE_LIMITED', THROTTLED_MESSAGE[scope](wait));
    this.name = 'SignInThrottled';
  }
}

/**
 * The account had too many failures: a password from an address it never signed in from needs
 * the authenticator code with it. The answer is the same whether the account exists or has
 * two-factor, so it reveals neither. `retryAfterSec` is when the account's count relaxes.
 */
export class ExtraVerificationRequired extends DomainError {
  constructor(
    wait: string,
    readonly retryAfterSec: number,
  ) {
    super(
      'EXTRA_VERIFICATION_REQUIRED',
      'Too many failed sign-ins on this account. Enter your authenticator code with your password, ' +
        `or sign in from a device you have used before; otherwise try again in ${wait}.`,
    );
    this.name = 'ExtraVerificationRequired';
  }
}

/**
 * Hashing is bounded per process, and so is the wait for the sign-in throttle's locks; past the
 * bound a request is refused rather than queued forever.
 */
export class SignInBusy extends DomainError {
  constructor() {
    super('RATE_LIMITED', 'The server is busy signing other users in; try again in a moment');
    this.name = 'SignInBusy';
  }
}

export class InvalidTwoFactorCode extends DomainError {
  constructor(message = 'Invalid verification code') {
    super('INVALID_2FA_CODE', message);
    this.name = 'InvalidTwoFactorCode';
  }
}

export class TwoFactorCodeUsed extends DomainError {
  constructor() {
    super('INVALID_2FA_CODE', 'This code has already been used; wait for the next one');
    this.name = 'TwoFactorCodeUsed';
  }
}

export class TwoFactorState extends DomainError {
  constructor(code: 'TWO_FACTOR_ALREADY_ENABLED' | 'TWO_FACTOR_NOT_ENABLED' | 'TWO_FACTOR_NOT_SET_UP') {
    const messages = {
      TWO_FACTOR_ALREADY_ENABLED: 'Two-factor authentication is already enabled',
      TWO_FACTOR_NOT_ENABLED: 'Two-factor authentication is not enabled',
      TWO_FACTOR_NOT_SET_UP: 'Start two-factor setup first',
    } as const;
    super(code, messages[code]);
    this.name = 'TwoFactorState';
  }
}

export class GoogleNotConfigured extends DomainError {
  constructor() {
    super('GOOGLE_NOT_CONFIGURED', 'Google sign-in is not configured');
    this.name = 'GoogleNotConfigured';
  }
}

export class InvalidGoogleToken extends DomainError {
  constructor(message = 'Google sign-in could not be verified') {
    super('INVALID_GOOGLE_TOKEN', message);
    this.name = 'InvalidGoogleToken';
  }
}

/**
 * The Google account's email belongs to an account created with a password. Linking it would let
 * whoever registered that address first (registration does not prove ownership of the mailbox)
 * share the Google user's account, so the user signs in with the password instead.
 */
export class GoogleEmailHasPassword extends DomainError {
  constructor() {
    super('EMAIL_TAKEN', 'An account with this email already exists; sign in with your email and password');
    this.name = 'GoogleEmailHasPassword';
  }
}

/**
 * A refresh or logout by cookie without the session's CSRF token in `X-CSRF-Token`: the cookie
 * alone may have been attached by the browser to a request another site forged.
 */
export class CsrfRejected extends DomainError {
  constructor() {
    super(
      'CSRF_REJECTED',
      'The session cookie must come with its CSRF token in the X-CSRF-Token header (the value of the updown_csrf cookie)',
    );
    this.name = 'CsrfRejected';
  }
}

/** A password change whose current password is wrong. */
export class WrongPassword extends DomainError {
  constructor() {
    super('WRONG_PASSWORD', 'The current password is not correct');
    this.name = 'WrongPassword';
  }
}

/**
 * A sensitive action (2FA on or off, a password change, anything deciding where money goes) on a
 * session whose holder has not proved the password (and code) in the last five minutes.
 */
export class StepUpRequired extends DomainError {
  constructor() {
    super(
      'STEP_UP_REQUIRED',
      'Confirm your password first (and your authenticator code if two-factor is on): this action needs a check from the last 5 minutes. Send it with POST /api/auth/step-up or in this request.',
    );
    this.name = 'StepUpRequired';
  }
}

/** A step-up on an account with two-factor on, without the authenticator code. */
export class TwoFactorCodeRequired extends DomainError {
  constructor() {
    super(
      'TWO_FACTOR_CODE_REQUIRED',
      'Two-factor authentication is on: enter the code from your authenticator app too',
    );
    this.name = 'TwoFactorCodeRequired';
  }
}

/** "End session" on a session that is not the caller's, or already ended. */
export class SessionNotFound extends DomainError {
  constructor() {
    super('SESSION_NOT_FOUND', 'No such active session on your account');
    this.name = 'SessionNotFound';
  }
}

/** An admin named a user id no account has. */
export class UserNotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'User not found');
    this.name = 'UserNotFound';
  }
}
