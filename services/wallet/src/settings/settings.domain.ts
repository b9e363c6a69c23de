import { DomainError } from '@updown/runtime/errors';
import { PAYOUT_PCT_MAX, PAYOUT_PCT_MIN } from '@updown/schemas/api';

export class InvalidSettings extends DomainError {
  constructor(message: string) {
    super('INVALID_SETTINGS', message);
  }
}

/** Payout percent, 1 to 100 with at most 2 decimals (the column is numeric(6,2)). */
export function checkPayoutPct(value: number): number {
  if (!Number.isFinite(value) || value < PAYOUT_PCT_MIN || value > PAYOUT_PCT_MAX) {
    throw new InvalidSettings(`Payout percentage must be between ${PAYOUT_PCT_MIN} and ${PAYOUT_PCT_MAX}`);
  }
  if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6) {
    throw new InvalidSettings('Payout percentage has at most 2 decimals');
  }
  return Math.round(value * 100) / 100;
}
