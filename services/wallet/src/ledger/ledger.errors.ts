import { DomainError } from '@updown/runtime';

/** A user account would go below zero. Nothing was written. */
export class InsufficientFunds extends DomainError {
  constructor(readonly accountCode: string | undefined) {
    super('INSUFFICIENT_FUNDS', 'Insufficient balance');
    this.name = 'InsufficientFunds';
  }
}

/** The idempotency key was used before for a transfer that moves different amounts or accounts. */
export class IdempotencyConflict extends DomainError {
  constructor(readonly idempotencyKey: string) {
    super('IDEMPOTENCY_CONFLICT', 'This idempotency key was already used for a different request');
    this.name = 'IdempotencyConflict';
  }
}

/** A transfer names an account that was never opened. A programming or data error, not a user's. */
export class UnknownAccount extends DomainError {
  constructor(readonly accountCodes: readonly string[]) {
    super(
      'UNKNOWN_ACCOUNT',
      `One or more ledger accounts were never opened: ${accountCodes.join(', ')}`,
      500,
    );
    this.name = 'UnknownAccount';
  }
}

/** The transfer itself is malformed (unbalanced, zero or fractional amounts, ...). */
export class InvalidTransfer extends DomainError {
  constructor(
    readonly problem: string,
    message: string,
  ) {
    super('INVALID_TRANSFER', message, 500);
    this.name = 'InvalidTransfer';
  }
}
