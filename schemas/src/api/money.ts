/**
 * The one place dollars become cents and back. Inside, money is integer cents; the API speaks
 * dollars with at most two decimals, as the spec's screens do.
 */

/** Largest amount the API accepts in one field: $1 billion, far inside the safe-integer range in cents. */
const API_DOLLARS_MAX = 1_000_000_000;

/**
 * Cents for a dollar amount, or undefined when it is not a finite number with at most two decimal
 * places (10.005 is refused rather than silently rounded: a client sending it has a bug).
 */
export function dollarsToCents(dollars: number): number | undefined {
  if (typeof dollars !== 'number' || !Number.isFinite(dollars) || Math.abs(dollars) > API_DOLLARS_MAX)
    return undefined;
  const cents = Math.round(dollars * 100);
  // Binary floating point cannot hold 0.29 exactly; anything within a millionth of a cent is the
  // two-decimal number the client meant.
  if (Math.abs(cents - dollars * 100) > 1e-6) return undefined;
  return cents;
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}
