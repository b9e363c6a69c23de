/**
 * How a trade settles (DESIGN §3), as pure functions: the outcome from entry and exit prices, the
 * profit or loss in cents, how the payout returns to the accounts the stake came from, and which
 * trades count toward a bonus's wagering turnover.
 */

export type Direction = 'UP' | 'DOWN';
export type Outcome = 'won' | 'lost' | 'draw' | 'void';

/** A trade with no tick within this window before its expiry is void: there is no honest exit price. */
export const EXIT_TICK_AGE_MS_MAX = 10_000;
/** A trade settles on the first tick after expiry, or this long after expiry if the feed is quiet. */
export const QUIET_FEED_SETTLE_DELAY_MS = 2_000;
/** Trades shorter than this do not count toward bonus turnover (spec §9). */
export const TURNOVER_DURATION_SEC_MIN = 30;

export interface ExitTick {
  readonly price: number;
  readonly ts: number;
}

export function outcome(
  direction: Direction,
  entryPrice: number,
  expiryTs: number,
  exit: ExitTick | undefined,
): Outcome {
  if (!exit || exit.ts > expiryTs || expiryTs - exit.ts > EXIT_TICK_AGE_MS_MAX) return 'void';
  if (exit.price === entryPrice) return 'draw';
  const up = exit.price > entryPrice;
  return (direction === 'UP') === up ? 'won' : 'lost';
}

/**
 * Profit in cents: a win earns amount × payout% rounded down to the cent, a loss costs the stake,
 * a draw or void earns nothing. The percentage is taken in hundredths so that 82.5% stays exact.
 */
export function pnlCents(amountCents: number, payoutPct: number, result: Outcome): number {
  switch (result) {
    case 'won': {
      const basisPoints = Math.round(payoutPct * 100);
      return Math.floor((amountCents * basisPoints) / 10_000);
    }
    case 'lost':
      return -amountCents;
    case 'draw':
    case 'void':
      return 0;
  }
}

/**
 * What goes back to the trader: stake plus profit on a win, the stake on a draw or void, nothing
 * on a loss — split between cash and bonus in the proportion the stake was taken, so bonus-funded
 * winnings stay bonus until wagering completes. Cash gets the rounding-down; bonus the remainder.
 */
export function returnSplit(
  stake: { readonly fromCashCents: number; readonly fromBonusCents: number },
  pnl: number,
  result: Outcome,
): { toCashCents: number; toBonusCents: number } {
  if (result === 'lost') return { toCashCents: 0, toBonusCents: 0 };
  const amount = stake.fromCashCents + stake.fromBonusCents;
  const total = amount + pnl;
  if (stake.fromBonusCents === 0) return { toCashCents: total, toBonusCents: 0 };
  const toCash = Math.floor((total * stake.fromCashCents) / amount);
  return { toCashCents: toCash, toBonusCents: total - toCash };
}

export interface TurnoverCandidate {
  readonly tradeId: string;
  readonly userId: string;
  readonly pair: string;
  readonly direction: Direction;
  readonly expiryTs: number;
  readonly durationSec: number;
  readonly accountType: 'demo' | 'real';
  readonly amountCents: number;
}

/**
 * Turnover each settled trade adds to its owner's active bonus. Demo trades, trades under 30 s
 * and both legs of a hedge (opposite directions on one pair and expiry, same user) count 0.
 * `sameExpiry` holds every trade of the user sharing that pair and expiry, the trade included.
 */
export function turnoverCents(trade: TurnoverCandidate, sameExpiry: readonly TurnoverCandidate[]): number {
  if (trade.accountType !== 'real' || trade.durationSec < TURNOVER_DURATION_SEC_MIN) return 0;
  const hedged = sameExpiry.some(
    (other) =>
      other.tradeId !== trade.tradeId &&
      other.userId === trade.userId &&
      other.accountType === 'real' &&
      other.pair === trade.pair &&
      other.expiryTs === trade.expiryTs &&
      other.direction !== trade.direction,
  );
  return hedged ? 0 : trade.amountCents;
}
