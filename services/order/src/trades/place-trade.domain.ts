import { ENTRY_PRICE_AGE_MS_MAX, entryPriceFresh, feedsAgree } from '@updown/verify/rules';
import { DomainError } from '@updown/runtime/errors';
import { TRADE_AMOUNT_MIN, TRADE_DURATIONS_SEC } from '@updown/schemas/api';
import { splitStake } from '@updown/wallet/domain';
import {
  checkRealPlacement,
  offeredPayoutPct,
  PairSuspended,
  PayoutChanged,
  UNCAPPED_TRADER,
  type PairRisk,
  type TraderRisk,
} from '../risk/risk.domain';

/**
 * The rules of accepting a trade (DESIGN §3), as a pure decision: given what the order service
 * knows at the instant it accepts (pair, latest tick, settings, balances, bonus) and the command,
 * either a trade to write or the reason it is refused. Time comes in with the command. Where the
 * stake comes from (cash, then bonus) and the bonus stake cap are the wallet's rules (`splitStake`).
 */

// The gateway's request schema states these rules to clients (the OpenAPI document) and refuses
// at the edge; the decision keeps them for every caller, including the internal placement API.
export { TRADE_DURATIONS_SEC };
export const MIN_STAKE_CENTS = TRADE_AMOUNT_MIN * 100;
/**
 * A pair whose latest tick is older than this cannot be traded: the entry price would be stale.
 * It is the entry rule receipts prove (`@updown/verify/rules`), so a verifier holds every trade to it.
 */
export const PRICE_AGE_MS_MAX = ENTRY_PRICE_AGE_MS_MAX;

export type Direction = 'UP' | 'DOWN';
export type AccountType = 'demo' | 'real';

export interface PlaceTradeCommand {
  readonly userId: string;
  readonly pair: string;
  readonly direction: Direction;
  readonly amountCents: number;
  readonly durationSec: number;
  readonly accountType: AccountType;
  /** The payout the trader was shown for this direction; less now is refused (`PayoutChanged`). */
  readonly expectedPayoutPct?: number;
  readonly now: number;
}

export interface PlacementState {
  readonly pair:
    { readonly symbol: string; readonly active: boolean; readonly payoutPct: number } | undefined;
  readonly latestTick:
    | {
        readonly price: number;
        readonly atMs: number;
        readonly tickId: number | null;
        /** What the pair's reference feed said at this tick; absent for a pair without one. */
        readonly reference?: TickReference;
      }
    | undefined;
  readonly stakeCentsMax: number;
  readonly balances: { readonly real: number; readonly bonus: number; readonly demo: number };
  /** The credited amount of the user's active bonus, if one is active. */
  readonly activeBonusCents: number | undefined;
  /** The pair's risk settings and book of open real trades; absent, no skew and no caps apply. */
  readonly risk?: PairRisk;
  /** The user's open real trades and caps; absent, none apply. */
  readonly trader?: TraderRisk;
}

export interface AcceptedTrade {
  readonly pair: string;
  readonly direction: Direction;
  readonly accountType: AccountType;
  readonly amountCents: number;
  readonly payoutPct: number;
  readonly entryPrice: number;
  readonly entryAtMs: number;
  readonly entryTickId: number | null;
  readonly acceptedAtMs: number;
  readonly expiryAtMs: number;
  readonly durationSec: number;
  /** Where the stake comes from: real cash first, then bonus (demo trades use demo only). */
  readonly stakeFromCashCents: number;
  readonly stakeFromBonusCents: number;
}

export class InvalidAmount extends DomainError {
  constructor() {
    super('INVALID_AMOUNT', 'Please enter a valid amount');
  }
}
export class StakeOutOfBounds extends DomainError {
  constructor(message: string) {
    super('STAKE_OUT_OF_BOUNDS', message);
  }
}
export class InvalidDuration extends DomainError {
  constructor() {
    super('INVALID_DURATION', `Duration must be one of ${TRADE_DURATIONS_SEC.join(', ')} seconds`);
  }
}
export class PairNotTradable extends DomainError {
  constructor(pair: string, reason: 'unknown' | 'inactive') {
    super(
      reason === 'unknown' ? 'UNKNOWN_PAIR' : 'PAIR_INACTIVE',
      reason === 'unknown' ? `Unknown pair: ${pair}` : `${pair} is not available for trading right now`,
    );
  }
}
export class StalePrice extends DomainError {
  constructor(pair: string) {
    super('STALE_PRICE', `No fresh price for ${pair}; please try again in a moment`);
  }
}
/** A pair with a reference feed: its latest price (null when it had none for 5 s) and the spread allowed. */
export interface TickReference {
  readonly price: number | null;
  readonly spreadBps: number;
}

export class FeedsDiverged extends DomainError {
  constructor(pair: string) {
    super('FEEDS_DIVERGED', `${pair}'s price feeds disagree; trading is paused until they agree again`);
  }
}

export class InsufficientBalance extends DomainError {
  constructor() {
    super('INSUFFICIENT_FUNDS', 'Insufficient balance');
  }
}

export function dollars(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function decidePlacement(state: PlacementState, command: PlaceTradeCommand): AcceptedTrade {
  if (!Number.isSafeInteger(command.amountCents) || command.amountCents <= 0) throw new InvalidAmount();
  if (command.amountCents < MIN_STAKE_CENTS)
    throw new StakeOutOfBounds(`Minimum trade amount is ${dollars(MIN_STAKE_CENTS)}`);
  if (command.amountCents > state.stakeCentsMax) {
    throw new StakeOutOfBounds(`Maximum trade amount is ${dollars(state.stakeCentsMax)}`);
  }
  if (!(TRADE_DURATIONS_SEC as readonly number[]).includes(command.durationSec)) throw new InvalidDuration();
  if (!state.pair) throw new PairNotTradable(command.pair, 'unknown');
  if (!state.pair.active) throw new PairNotTradable(command.pair, 'inactive');
  const tick = state.latestTick;
  // A tick stamped up to 5 s ahead of this clock (another host's) is taken, and the acceptance moves
  // to its instant: a trade is never accepted before the price it enters at, as its receipt proves.
  const acceptedAtMs = tick ? Math.max(command.now, tick.atMs) : command.now;
  if (!tick || tick.atMs > command.now + PRICE_AGE_MS_MAX || !entryPriceFresh(tick.atMs, acceptedAtMs)) {
    throw new StalePrice(command.pair);
  }
  // A pair with a reference trades only while the reference is live and agrees (docs/feeds.md).
  if (tick.reference) {
    if (tick.reference.price === null) throw new StalePrice(command.pair);
    if (!feedsAgree(tick.price, tick.reference.price, tick.reference.spreadBps))
      throw new FeedsDiverged(command.pair);
  }

  // Risk controls (README "Risk controls"): a suspended pair takes no real trade; the payout is
  // the one offered on this side now, never less than the trader was shown.
  const risk = state.risk;
  if (risk && command.accountType === 'real' && risk.suspendedReason !== null) {
    throw new PairSuspended(command.pair);
  }
  const payoutPct = risk
    ? offeredPayoutPct(state.pair.payoutPct, risk.settings, risk.book, command.direction)
    : state.pair.payoutPct;
  if (command.expectedPayoutPct !== undefined && payoutPct < command.expectedPayoutPct - 1e-9) {
    throw new PayoutChanged(state.pair.symbol, command.direction, payoutPct);
  }

  const split = splitStake(state.balances, state.activeBonusCents, command);
  if (!split.ok) {
    if (split.problem === 'bonus_stake_cap') {
      throw new StakeOutOfBounds(`With an active bonus the maximum stake is ${dollars(split.capCents)}`);
    }
    throw new InsufficientBalance();
  }
  if (risk && command.accountType === 'real') {
    checkRealPlacement(state.pair.symbol, risk, state.trader ?? UNCAPPED_TRADER, {
      direction: command.direction,
      amountCents: command.amountCents,
      payoutPct,
    });
  }

  return {
    pair: state.pair.symbol,
    direction: command.direction,
    accountType: command.accountType,
    amountCents: command.amountCents,
    payoutPct,
    entryPrice: tick.price,
    entryAtMs: tick.atMs,
    entryTickId: tick.tickId,
    acceptedAtMs,
    expiryAtMs: acceptedAtMs + command.durationSec * 1000,
    durationSec: command.durationSec,
    stakeFromCashCents: split.fromCashCents,
    stakeFromBonusCents: split.fromBonusCents,
  };
}
