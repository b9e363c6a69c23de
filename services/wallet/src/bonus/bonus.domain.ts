/**
 * The first-deposit bonus rules (DESIGN §4, spec §9 Bonus). Pure: amounts in integer cents,
 * instants in epoch milliseconds, the current time passed in.
 */

export const BONUS_MIN_DEPOSIT_CENTS = 2_000;
export const BONUS_CAP_CENTS = 50_000;
export const BONUS_RATE_PCT = 50;
export const BONUS_TURNOVER_MULTIPLIER = 35;
export const BONUS_VALIDITY_DAYS = 30;
export const BONUS_MAX_STAKE_PCT = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface BonusEligibility {
  /** The user has had a first-deposit bonus before (any status): `first_deposit_bonus_used`. */
  readonly bonusUsed: boolean;
  readonly hasActiveBonus: boolean;
}

export interface BonusGrant {
  readonly amountCents: number;
  readonly turnoverRequiredCents: number;
  readonly expiresAtMs: number;
}

/**
 * The bonus a real deposit credits, or null. Only the first deposit of at least $20 qualifies
 * (a smaller first deposit leaves the offer open), 50% of it, capped at $500.
 */
export function firstDepositBonus(
  depositCents: number,
  eligibility: BonusEligibility,
  creditedAtMs: number,
): BonusGrant | null {
  if (eligibility.bonusUsed || eligibility.hasActiveBonus) return null;
  if (depositCents < BONUS_MIN_DEPOSIT_CENTS) return null;
  const amountCents = Math.min(Math.floor((depositCents * BONUS_RATE_PCT) / 100), BONUS_CAP_CENTS);
  return {
    amountCents,
    turnoverRequiredCents: amountCents * BONUS_TURNOVER_MULTIPLIER,
    expiresAtMs: creditedAtMs + BONUS_VALIDITY_DAYS * DAY_MS,
  };
}

/** Whole days until expiry, rounded up, never below zero: 29 days and 1 minute left shows 30. */
export function bonusDaysRemaining(expiresAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((expiresAtMs - nowMs) / DAY_MS));
}

/** The largest real stake per trade while the bonus is active, rounded down to the cent. */
export function bonusMaxStakeCents(bonusAmountCents: number): number {
  return Math.floor((bonusAmountCents * BONUS_MAX_STAKE_PCT) / 100);
}
