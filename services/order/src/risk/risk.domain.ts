import { DomainError } from '@updown/runtime/errors';
import { pnlCents } from '@updown/verify/rules';

/**
 * The house's risk rules (README "Risk controls"), as pure functions over a pair's book of open
 * real trades. Placement decides on them under the lock of the pair's book; settlement takes
 * settled trades out of the book and trips the loss breaker.
 *
 * Exposure of a direction: what the house loses if that direction wins every open real trade of
 * the pair, net of what it then wins from the other side:
 *
 *   exposure(UP) = Σ potential profit of open UP trades − Σ stakes of open DOWN trades
 *
 * Example: open UP trades of $100 and $50 at 80% (potential profit $80 + $40) and one DOWN trade
 * of $30: exposure(UP) = $120 − $30 = $90, exposure(DOWN) = $24 − $150 = −$126 (the house gains).
 * A cap on UP refuses a placement on UP that would take exposure(UP) above it. A DOWN placement
 * lowers exposure(UP), so it is never refused by UP's cap.
 */

export type Direction = 'UP' | 'DOWN';

/** One side of a pair's book: its open real trades. */
export interface SideBook {
  readonly openTrades: number;
  readonly stakeCents: number;
  /** What they win together if this side wins: Σ `potentialProfitCents`. */
  readonly profitCents: number;
}

export interface PairBook {
  readonly UP: SideBook;
  readonly DOWN: SideBook;
}

export const EMPTY_BOOK: PairBook = {
  UP: { openTrades: 0, stakeCents: 0, profitCents: 0 },
  DOWN: { openTrades: 0, stakeCents: 0, profitCents: 0 },
};

/** The admin's settings of a pair's risk controls; caps and limit in cents, null for none. */
export interface PairRiskSettings {
  readonly capCents: { readonly UP: number | null; readonly DOWN: number | null };
  /** Most points the heavier side's payout drops; 0 for no skew. */
  readonly skewMaxPct: number;
  /** Imbalance of open stakes at which the whole skew applies. */
  readonly skewFullAtCents: number;
  readonly lossLimitCents: number | null;
  readonly lossWindowMin: number;
}

/** A pair's risk state as placement reads it under the book's lock. */
export interface PairRisk {
  readonly settings: PairRiskSettings;
  readonly book: PairBook;
  /** Why real placements are suspended (the breaker); null while they are not. */
  readonly suspendedReason: string | null;
}

/** A trader's open real trades and the caps that apply to them (the lower of default and own). */
export interface TraderRisk {
  readonly openTrades: number;
  readonly openStakeCents: number;
  readonly openTradesMax: number | null;
  readonly openStakeCentsMax: number | null;
}

export const UNCAPPED_TRADER: TraderRisk = {
  openTrades: 0,
  openStakeCents: 0,
  openTradesMax: null,
  openStakeCentsMax: null,
};

export function opposite(direction: Direction): Direction {
  return direction === 'UP' ? 'DOWN' : 'UP';
}

/** What a trade wins if it wins: settlement's own rule (`pnlCents` of the receipts), so the book adds up to the payouts. */
export function potentialProfitCents(amountCents: number, payoutPct: number): number {
  return pnlCents(amountCents, Math.round(payoutPct * 100), 'won');
}

export function exposureCents(book: PairBook, direction: Direction): number {
  return book[direction].profitCents - book[opposite(direction)].stakeCents;
}

/** The book with one more open trade (or, with `sign` −1, one fewer). */
export function withTrade(
  book: PairBook,
  trade: { direction: Direction; amountCents: number; payoutPct: number },
  sign: 1 | -1 = 1,
): PairBook {
  const side = book[trade.direction];
  return {
    ...book,
    [trade.direction]: {
      openTrades: side.openTrades + sign,
      stakeCents: side.stakeCents + sign * trade.amountCents,
      profitCents: side.profitCents + sign * potentialProfitCents(trade.amountCents, trade.payoutPct),
    },
  };
}

/**
 * The payout offered on `direction`: the pair's payout, less a skew on the heavier side. The drop
 * grows linearly with the imbalance of open real stakes (this side's minus the other's) and
 * reaches `skewMaxPct` at `skewFullAtCents`, in whole points, rounded down (so a small imbalance
 * drops nothing); it never takes a payout below 1%. The lighter side, and both sides of a
 * balanced book, get the pair's payout. Monotonic: more imbalance never raises the heavier
 * side's payout.
 */
export function offeredPayoutPct(
  basePct: number,
  settings: Pick<PairRiskSettings, 'skewMaxPct' | 'skewFullAtCents'>,
  book: PairBook,
  direction: Direction,
): number {
  const imbalance = book[direction].stakeCents - book[opposite(direction)].stakeCents;
  if (settings.skewMaxPct <= 0 || imbalance <= 0 || settings.skewFullAtCents <= 0) return basePct;
  const share = Math.min(imbalance, settings.skewFullAtCents) / settings.skewFullAtCents;
  const drop = Math.floor(settings.skewMaxPct * share + 1e-9);
  return Math.max(Math.min(basePct, 1), basePct - drop);
}

export class PairSuspended extends DomainError {
  constructor(pair: string) {
    super(
      'PAIR_SUSPENDED',
      `Real trading on ${pair} is suspended by risk controls; demo trading is still open`,
    );
  }
}

export class ExposureCapReached extends DomainError {
  constructor(pair: string, direction: Direction) {
    super(
      'EXPOSURE_CAP_REACHED',
      `${pair} ${direction} has reached its exposure limit; try a smaller amount or the other direction`,
    );
  }
}

export class OpenStakeCapReached extends DomainError {
  constructor(capCents: number) {
    super(
      'OPEN_STAKE_CAP_REACHED',
      `Your open real trades may stake at most ${dollarsText(capCents)} in all; wait for some to settle or lower the amount`,
    );
  }
}

export class OpenTradesCapReached extends DomainError {
  constructor(cap: number) {
    super(
      'OPEN_TRADES_CAP_REACHED',
      `You may have at most ${cap} open real trade${cap === 1 ? '' : 's'} at a time; wait for one to settle`,
    );
  }
}

export class PayoutChanged extends DomainError {
  constructor(pair: string, direction: Direction, payoutPct: number) {
    super(
      'PAYOUT_CHANGED',
      `The payout for ${direction} on ${pair} is now ${payoutPct}%; please check it and place the trade again`,
    );
  }
}

/** An amount as the risk errors tell it: `$1,234.50`. */
export function dollarsText(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * The risk rules a real placement must pass, in order: the pair not suspended, the trader's open
 * trades and open stake under their caps, the direction's exposure under its cap, each counted
 * with this trade. Demo placements move no house money and pass.
 */
export function checkRealPlacement(
  pair: string,
  risk: PairRisk,
  trader: TraderRisk,
  trade: { direction: Direction; amountCents: number; payoutPct: number },
): void {
  if (risk.suspendedReason !== null) throw new PairSuspended(pair);
  if (trader.openTradesMax !== null && trader.openTrades + 1 > trader.openTradesMax) {
    throw new OpenTradesCapReached(trader.openTradesMax);
  }
  if (
    trader.openStakeCentsMax !== null &&
    trader.openStakeCents + trade.amountCents > trader.openStakeCentsMax
  ) {
    throw new OpenStakeCapReached(trader.openStakeCentsMax);
  }
  const cap = risk.settings.capCents[trade.direction];
  if (cap !== null && exposureCents(withTrade(risk.book, trade), trade.direction) > cap) {
    throw new ExposureCapReached(pair, trade.direction);
  }
}

/** The caps that apply to a trader: their own where set, never above the default. */
export function effectiveCap(defaultCap: number | null, own: number | null): number | null {
  if (own === null) return defaultCap;
  if (defaultCap === null) return own;
  return Math.min(defaultCap, own);
}

/** The start of the minute `atMs` falls in: the house P/L is kept per pair and minute. */
export function minuteOf(atMs: number): number {
  return Math.floor(atMs / 60_000) * 60_000;
}

/** The first minute the breaker's window counts at `nowMs`: the window's, or the first whole minute after a resume. */
export function breakerWindowStart(nowMs: number, windowMin: number, resumedAtMs: number | null): number {
  const windowStart = minuteOf(nowMs) - (windowMin - 1) * 60_000;
  if (resumedAtMs === null) return windowStart;
  return Math.max(windowStart, minuteOf(resumedAtMs) + 60_000);
}

/** Whether the house's P/L over the window trips the breaker: strictly below minus the limit. */
export function breakerTrips(windowPnlCents: number, lossLimitCents: number | null): boolean {
  return lossLimitCents !== null && windowPnlCents < -lossLimitCents;
}

export function suspensionReason(windowPnlCents: number, lossLimitCents: number, windowMin: number): string {
  return `House P/L ${signedDollars(windowPnlCents)} over ${windowMin} min is below the limit of −${dollarsText(lossLimitCents)}`;
}

function signedDollars(cents: number): string {
  return cents < 0 ? `−${dollarsText(-cents)}` : dollarsText(cents);
}
