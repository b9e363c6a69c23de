import { DomainError } from '@updown/runtime';

/**
 * The named failures of accounts and sessions. Their codes are mapped to statuses in
 * `http/error-status.ts`; the messages are what the console shows (it reads `detail`).
 */

/** Unknown email and wrong password are one error with one message, so neither is revealed. */
export class InvalidCredentials extends DomainError {
  constructor() {
    super('INVALID_CREDENTIALS', 'Invalid email or password');
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

export class AccountLocked extends DomainError {
  constructor(retryAfter: string) {
    super('ACCOUNT_LOCKED', `Too many failed attempts. This account is locked; try again in ${retryAfter}.`);
    this.name = 'AccountLocked';
  }
}

/** Hashing is bounded per process; past the bound a request is refused rather than queued forever. */
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
