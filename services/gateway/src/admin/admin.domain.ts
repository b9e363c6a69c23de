import { DomainError } from '@updown/runtime/errors';
import { PAYOUT_PCT_MAX, PAYOUT_PCT_MIN } from '@updown/schemas/api';

/** Admin input rules that need no I/O. */
/** Matches the pair list's symbol format check, so a bad symbol is a 400, not a constraint error. */
const PAIR_SYMBOL = /^[A-Z0-9][A-Z0-9._-]{1,31}$/;
const PROVIDER = /^[A-Z0-9_-]{1,32}$/;

export class InvalidPair extends DomainError {
  constructor(message: string) {
    super('INVALID_PAIR', message);
  }
}

export class InvalidSettings extends DomainError {
  constructor(message: string) {
    super('INVALID_SETTINGS', message);
  }
}

export interface NewPair {
  readonly symbol: string;
  readonly displayName: string;
  readonly provider: string;
}

/** Upper-cases the symbol (as the console does) and checks every field; provider defaults to OTC. */
export function normaliseNewPair(input: {
  symbol: string;
  display_name: string;
  provider?: string;
}): NewPair {
  const symbol = input.symbol.trim().toUpperCase();
  const displayName = input.display_name.trim();
  const provider = (input.provider ?? 'OTC').trim().toUpperCase() || 'OTC';
  if (symbol === '' || displayName === '') throw new InvalidPair('Please fill all fields');
  if (!PAIR_SYMBOL.test(symbol)) {
    throw new InvalidPair('Symbol must be 2-32 characters: letters, digits, dot, dash or underscore');
  }
  if (displayName.length > 64) throw new InvalidPair('Display name must be at most 64 characters');
  if (!PROVIDER.test(provider))
    throw new InvalidPair('Provider must be 1-32 letters, digits, dash or underscore');
  return { symbol, displayName, provider };
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
