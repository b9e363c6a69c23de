import {
  divergenceBps,
  EXIT_TICK_AGE_MS_MAX,
  pnlCents as receiptPnlCents,
  referenceDecision,
  settlementRule,
  usableExit,
  type Rule,
} from '@updown/verify/rules';

/**
 * How a trade settles (DESIGN §3), as pure functions: the outcome from entry and exit prices, the
 * profit or loss in cents, how the payout returns to the accounts the stake came from, and which
 * trades count toward a bonus's wagering turnover.
 *
 * The outcome and profit rules themselves live in `@updown/verify` (its `rules` module), the
 * dependency-free verifier anyone can run on a receipt: settling and verifying run one code.
 */

export type Direction = 'UP' | 'DOWN';
export type Outcome = 'won' | 'lost' | 'draw' | 'void';

/** A trade with no tick within this window before its expiry is void: there is no honest exit price. */
export { EXIT_TICK_AGE_MS_MAX };
/**
 * A trade settles on the first stored tick after its expiry, or this long after expiry if no such
 * tick is stored. Only that stored tick proves every earlier tick of the pair is stored too (one
 * writer stores a pair's ticks in order); settling on the clock instead is a fallback for a dead
 * feed, so the delay is several times the normal write lag: settling early on a slow writer could
 * pick an earlier exit tick than the one that was in force, or void a trade that had a price.
 */
export const QUIET_FEED_SETTLE_DELAY_MS = 10_000;
/** Trades shorter than this do not count toward bonus turnover (spec §9). */
export const TURNOVER_DURATION_SEC_MIN = 30;

export interface ExitTick {
  readonly price: number;
  readonly atMs: number;
}

export function outcome(
  direction: Direction,
  entryPrice: number,
  expiryAtMs: number,
  exit: ExitTick | undefined,
): Outcome {
  return settlementRule(direction, entryPrice, expiryAtMs, exit).outcome;
}

/**
 * Profit in cents: a win earns amount × payout% rounded down to the cent, a loss costs the stake,
 * a draw or void earns nothing. The percentage is taken in hundredths so that 82.5% stays exact.
 */
export function pnlCents(amountCents: number, payoutPct: number, result: Outcome): number {
  return receiptPnlCents(amountCents, Math.round(payoutPct * 100), result);
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
  readonly expiryAtMs: number;
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
      other.expiryAtMs === trade.expiryAtMs &&
      other.direction !== trade.direction,
  );
  return hedged ? 0 : trade.amountCents;
}

/**
 * The instant before which a pair's pending trades are due: a stored tick after the expiry exists
 * (`expiry < latestTickAtMs`), or the feed has been quiet for `QUIET_FEED_SETTLE_DELAY_MS` since the
 * expiry (`expiry + delay <= now`). A trade is due when `expiryAtMs < dueBefore(...)`.
 */
export function dueBefore(latestTickAtMs: number | undefined, now: number): number {
  const quietBound = now - QUIET_FEED_SETTLE_DELAY_MS + 1;
  return latestTickAtMs === undefined ? quietBound : Math.max(latestTickAtMs, quietBound);
}

export interface SettlingTrade {
  readonly tradeId: string;
  readonly userId: string;
  readonly direction: Direction;
  readonly accountType: 'demo' | 'real';
  readonly amountCents: number;
  readonly stakeCashCents: number;
  readonly stakeBonusCents: number;
  readonly payoutPct: number;
  readonly entryPrice: number;
  readonly expiryAtMs: number;
}

export interface StoredTick extends ExitTick {
  readonly id: number;
}

/** A pair's reference feed as settlement read it: the spread now, and its prices at entry and expiry. */
export interface SettlementReference {
  readonly provider: string;
  readonly spreadBps: number;
  readonly atEntry: { readonly price: number; readonly atMs: number } | null;
  readonly atExpiry: { readonly price: number; readonly atMs: number } | null;
}

/** The cross-check kept with the trade as its evidence (the API's `ReferenceCheck`). */
export interface ReferenceCheckRecord {
  readonly provider: string;
  readonly spread_bps: number;
  readonly entry: ReferenceMoment;
  readonly expiry: ReferenceMoment | null;
  readonly decision:
    'agreed' | 'feeds_diverged_at_entry' | 'feeds_diverged_at_expiry' | 'reference_unavailable';
}

interface ReferenceMoment {
  readonly price: number;
  readonly reference_price: number | null;
  readonly reference_at_ms: number | null;
  readonly divergence_bps: number | null;
}

function moment(price: number, reference: { price: number; atMs: number } | null): ReferenceMoment {
  return {
    price,
    reference_price: reference?.price ?? null,
    reference_at_ms: reference?.atMs ?? null,
    divergence_bps: reference ? divergenceBps(price, reference.price) : null,
  };
}

export interface Settlement {
  readonly status: Outcome;
  /** The rule that decided it (`settlementRule`); for a void trade, its void reason. */
  readonly rule: Rule;
  /** Null for a pair without a reference feed. */
  readonly referenceCheck: ReferenceCheckRecord | null;
  readonly pnlCents: number;
  /** The tick the trade settled on; null when void (there is no honest exit price). */
  readonly exit: StoredTick | null;
  readonly toCashCents: number;
  readonly toBonusCents: number;
}

/**
 * Settles one trade on the stored tick with the greatest `atMs <= expiry` of its pair (if any), and
 * for a pair with a reference feed, on the cross-check of the two feeds at entry and expiry: a
 * disagreement beyond the spread voids it (`settlementRule`).
 */
export function settle(
  trade: SettlingTrade,
  exit: StoredTick | undefined,
  reference?: SettlementReference,
): Settlement {
  const prices = reference && {
    spreadBps: reference.spreadBps,
    atEntry: reference.atEntry?.price ?? null,
    atExpiry: reference.atExpiry?.price ?? null,
  };
  const ruled = settlementRule(trade.direction, trade.entryPrice, trade.expiryAtMs, exit, prices);
  const status = ruled.outcome;
  const usable = usableExit(trade.expiryAtMs, exit);
  const referenceCheck: ReferenceCheckRecord | null =
    reference && prices
      ? {
          provider: reference.provider,
          spread_bps: reference.spreadBps,
          entry: moment(trade.entryPrice, reference.atEntry),
          expiry: usable ? moment(usable.price, reference.atExpiry) : null,
          decision: referenceDecision(trade.entryPrice, usable, prices),
        }
      : null;
  const pnl = pnlCents(trade.amountCents, trade.payoutPct, status);
  const split = returnSplit(
    { fromCashCents: trade.stakeCashCents, fromBonusCents: trade.stakeBonusCents },
    pnl,
    status,
  );
  return {
    status,
    rule: ruled.rule,
    referenceCheck,
    pnlCents: pnl,
    exit: status === 'void' || !exit ? null : exit,
    toCashCents: split.toCashCents,
    toBonusCents: split.toBonusCents,
  };
}

export type SettlementAccount =
  | {
      readonly owner: string;
      readonly type: 'real' | 'bonus' | 'demo' | 'real_in_play' | 'bonus_in_play' | 'demo_in_play';
    }
  | { readonly system: 'house_real' | 'house_demo' | 'bonus_pool' };

export interface SettlementEntry {
  readonly kind: 'trade_payout' | 'trade_loss' | 'trade_refund';
  readonly idempotencyKey: string;
  readonly postings: readonly { readonly account: SettlementAccount; readonly amountCents: number }[];
  readonly ref: { readonly tradeId: string };
}

/** One ledger entry per trade, ever: the key a retried settlement reuses. */
export function settlementKey(tradeId: string): string {
  return `trade:${tradeId}:settle`;
}

/**
 * The ledger entry that closes a trade: the held stake leaves the in-play accounts and goes back to
 * the trader (win, draw, void) or to the house (loss). Cash and bonus are separate books: cash
 * profit is paid by and cash losses go to the house; the bonus share of a profit is paid by and a
 * lost bonus stake goes back to the bonus pool, so bonus money only becomes cash by conversion
 * when wagering completes.
 */
export function settlementEntry(trade: SettlingTrade, result: Settlement): SettlementEntry {
  const owner = trade.userId;
  const lines: { account: SettlementAccount; amountCents: number }[] = [];
  if (trade.accountType === 'demo') {
    lines.push({ account: { owner, type: 'demo_in_play' }, amountCents: -trade.amountCents });
    const back = result.toCashCents + result.toBonusCents;
    lines.push({ account: { owner, type: 'demo' }, amountCents: back });
    lines.push({ account: { system: 'house_demo' }, amountCents: trade.amountCents - back });
  } else {
    lines.push({ account: { owner, type: 'real_in_play' }, amountCents: -trade.stakeCashCents });
    lines.push({ account: { owner, type: 'bonus_in_play' }, amountCents: -trade.stakeBonusCents });
    lines.push({ account: { owner, type: 'real' }, amountCents: result.toCashCents });
    lines.push({ account: { owner, type: 'bonus' }, amountCents: result.toBonusCents });
    lines.push({ account: { system: 'house_real' }, amountCents: trade.stakeCashCents - result.toCashCents });
    lines.push({
      account: { system: 'bonus_pool' },
      amountCents: trade.stakeBonusCents - result.toBonusCents,
    });
  }
  const kind =
    result.status === 'won' ? 'trade_payout' : result.status === 'lost' ? 'trade_loss' : 'trade_refund';
  return {
    kind,
    idempotencyKey: settlementKey(trade.tradeId),
    postings: lines.filter((line) => line.amountCents !== 0),
    ref: { tradeId: trade.tradeId },
  };
}
