import { DomainError } from '@updown/runtime/errors';
import { PAYMENT_AMOUNT_MAX } from '@updown/schemas/api';

/** Deposit and withdrawal rules that need no I/O. Amounts are integer cents. */

/**
 * The largest single deposit or withdrawal, in cents. The request schema refuses more at the edge
 * (and documents it); this check keeps the rule for any other caller of the commands.
 */
export const PAYMENT_AMOUNT_CENTS_MAX = PAYMENT_AMOUNT_MAX * 100;

export class InvalidAmount extends DomainError {
  constructor(message = 'Please enter a valid amount') {
    super('INVALID_AMOUNT', message);
  }
}

export class DemoWithdrawal extends DomainError {
  constructor() {
    super('DEMO_WITHDRAWAL', 'Demo funds cannot be withdrawn');
  }
}

export class NoActiveBonus extends DomainError {
  constructor() {
    super('NO_ACTIVE_BONUS', 'No active bonus');
  }
}

export class PaymentFailed extends DomainError {
  constructor() {
    super('PAYMENT_FAILED', 'Deposit failed: the payment was declined');
  }
}

/**
 * Checks an amount already converted to cents (undefined when it was not a 2-decimal number).
 * Throws the error the console shows; returns the cents otherwise.
 */
export function checkPaymentAmount(cents: number | undefined, verb: 'deposit' | 'withdrawal'): number {
  if (cents === undefined || cents <= 0) throw new InvalidAmount();
  if (cents > PAYMENT_AMOUNT_CENTS_MAX) {
    throw new InvalidAmount(
      `Maximum ${verb} amount is $${(PAYMENT_AMOUNT_CENTS_MAX / 100).toLocaleString('en-US')}.00`,
    );
  }
  return cents;
}
