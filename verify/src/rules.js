// @ts-check
/**
 * The rules a receipt proves (docs/receipts.md, "Settlement rules"), as pure functions: which tick
 * a trade enters on, which tick it exits on, how it settles and what it earns. The order service
 * accepts trades and the settlement service settles them with these same functions, so a
 * receipt's ticks, outcome and profit are checked here exactly as they were decided. Integer
 * arithmetic only.
 */

/** @typedef {'UP' | 'DOWN'} Direction */
/** @typedef {'won' | 'lost' | 'draw' | 'void'} Outcome */
/**
 * @typedef {'exit_above_entry' | 'exit_below_entry' | 'exit_equals_entry' | 'no_exit_tick' | 'exit_tick_too_old' | 'feeds_diverged_at_entry' | 'feeds_diverged_at_expiry'} Rule
 */
/**
 * What a pair's reference feed said at a trade's entry and expiry, for a pair that has one: the
 * largest disagreement the pair allows, and the reference's price in force at each moment (null
 * when it had none in the 10 s before).
 *
 * @typedef {object} ReferencePrices
 * @property {number} spreadBps
 * @property {number | null} atEntry
 * @property {number | null} atExpiry
 */
/** @typedef {'agreed' | 'feeds_diverged_at_entry' | 'feeds_diverged_at_expiry' | 'reference_unavailable'} ReferenceDecision */
/**
 * The tick a trade settles on: the last stored tick of its pair with `atMs <= expiryAtMs`
 * ({@link exitTickProblems}).
 *
 * @typedef {object} ExitPrice
 * @property {number} price
 * @property {number} atMs
 */

/** A trade with no tick within this window before its expiry is void: there is no honest exit price. */
export const EXIT_TICK_AGE_MS_MAX = 10000;
/**
 * A trade enters on the newest tick the order service holds, and only while that tick is at most
 * this old at acceptance: an older price is stale, and the placement is refused.
 */
export const ENTRY_PRICE_AGE_MS_MAX = 5000;
/** `payoutBasisPoints` are hundredths of a percent: 10000 is 100%. */
export const BASIS_POINTS_PER_UNIT = 10000;

/** @type {readonly Outcome[]} */
export const OUTCOMES = ['won', 'lost', 'draw', 'void'];
/** @type {readonly Rule[]} */
export const RULES = [
  'exit_above_entry',
  'exit_below_entry',
  'exit_equals_entry',
  'no_exit_tick',
  'exit_tick_too_old',
  'feeds_diverged_at_entry',
  'feeds_diverged_at_expiry',
];

/** A reference price older than this at a moment is no price at all: the same window as the exit tick's. */
export const REFERENCE_AGE_MS_MAX = EXIT_TICK_AGE_MS_MAX;

/**
 * A tick of a pair's chain, as the entry and exit rules look at it.
 *
 * @typedef {object} TickPoint
 * @property {number} seq
 * @property {number} atMs
 */

/**
 * Whether a trade accepted at `acceptedAtMs` may enter on a tick of `tickAtMs`: the tick is not
 * after the acceptance and at most {@link ENTRY_PRICE_AGE_MS_MAX} before it.
 *
 * @param {number} tickAtMs
 * @param {number} acceptedAtMs
 * @returns {boolean}
 */
export function entryPriceFresh(tickAtMs, acceptedAtMs) {
  return tickAtMs <= acceptedAtMs && acceptedAtMs - tickAtMs <= ENTRY_PRICE_AGE_MS_MAX;
}

/**
 * The entry rule. A trade enters at the price of the newest tick of its pair that the order
 * service had received when it accepted the trade. Ticks reach it only after they are stored in
 * the chain, so its newest may trail the newest stored by the time one takes to travel; the rule
 * a receipt proves is therefore: the entry price is the entry tick's (compared by value), that
 * tick is a stored tick of the chain (the proof) and {@link entryPriceFresh} at acceptance.
 *
 * @param {string} entryPrice the receipt's entry price
 * @param {number} acceptedAtMs
 * @param {(TickPoint & { price: string }) | null} entryTick
 * @returns {string[]} the problems; empty when the entry tick proves the entry price
 */
export function entryTickProblems(entryPrice, acceptedAtMs, entryTick) {
  if (entryTick === null) {
    return [
      `the receipt names no entry tick: the entry price ${entryPrice} is not proven to be a stored tick's`,
    ];
  }
  /** @type {string[]} */
  const problems = [];
  if (Number(entryTick.price) !== Number(entryPrice)) {
    problems.push(`entryTick ${entryTick.seq} price ${entryTick.price} is not the entry price ${entryPrice}`);
  }
  if (entryTick.atMs > acceptedAtMs) {
    problems.push(
      `entryTick ${entryTick.seq} at ${entryTick.atMs} is after the trade was accepted at ${acceptedAtMs}`,
    );
  } else if (!entryPriceFresh(entryTick.atMs, acceptedAtMs)) {
    problems.push(
      `entryTick ${entryTick.seq} at ${entryTick.atMs} is ${acceptedAtMs - entryTick.atMs} ms before the acceptance at ${acceptedAtMs}: a trade enters only on a tick at most ${ENTRY_PRICE_AGE_MS_MAX} ms old`,
    );
  }
  return problems;
}

/**
 * The exit rule: a trade exits on the last tick of its pair at or before its expiry, and a
 * receipt proves it with the tick that follows it in the chain, which must be later than the
 * expiry. Without that tick the exit is not proven (a signer could otherwise name an earlier,
 * more favourable tick), so a missing one is a problem, not a warning. Every other tick given
 * (the receipt's and its proof segments') is used too: none after the exit tick may be at or
 * before the expiry. With no exit tick, the first tick after the expiry must be the pair's tick 1.
 *
 * @param {number} expiryAtMs
 * @param {TickPoint | null} exitTick the receipt's exit tick
 * @param {TickPoint | null} afterExpiryTick the receipt's tick after expiry
 * @param {readonly TickPoint[]} [ticks] every other tick of the chain the receipt and its proof hold
 * @returns {string[]} the problems; empty when the ticks prove the exit tick
 */
export function exitTickProblems(expiryAtMs, exitTick, afterExpiryTick, ticks = []) {
  /** @type {string[]} */
  const problems = [];
  if (exitTick && exitTick.atMs > expiryAtMs) {
    problems.push(`exitTick ${exitTick.seq} at ${exitTick.atMs} is after expiry ${expiryAtMs}`);
  }
  const nextSeq = exitTick ? exitTick.seq + 1 : 1;
  if (afterExpiryTick) {
    if (afterExpiryTick.atMs <= expiryAtMs) {
      problems.push(
        `afterExpiryTick ${afterExpiryTick.seq} at ${afterExpiryTick.atMs} is not after expiry ${expiryAtMs}`,
      );
    }
    if (afterExpiryTick.seq !== nextSeq) {
      problems.push(
        exitTick
          ? `afterExpiryTick is tick ${afterExpiryTick.seq}, not tick ${nextSeq} after exitTick ${exitTick.seq}`
          : `exitTick is null, but tick ${afterExpiryTick.seq - 1} comes before afterExpiryTick ${afterExpiryTick.seq}: it is at or before expiry, or it would be the first tick after it`,
      );
    }
  }
  const later = ticks.filter(
    (tick) =>
      (exitTick === null || tick.seq > exitTick.seq) &&
      tick.seq !== afterExpiryTick?.seq &&
      tick.atMs <= expiryAtMs,
  );
  for (const tick of later) {
    problems.push(
      exitTick
        ? `tick ${tick.seq} at ${tick.atMs} is at or before expiry ${expiryAtMs}: exitTick ${exitTick.seq} is not the last tick at or before expiry`
        : `tick ${tick.seq} at ${tick.atMs} is at or before expiry ${expiryAtMs}, yet the receipt names no exit tick`,
    );
  }
  const next =
    afterExpiryTick?.seq === nextSeq ? afterExpiryTick : ticks.find((tick) => tick.seq === nextSeq);
  if (next === undefined) {
    problems.push(
      exitTick
        ? `neither afterExpiryTick nor the proof holds tick ${nextSeq}, the tick after exitTick ${exitTick.seq}: that it is the last tick at or before expiry ${expiryAtMs} is not proven`
        : `neither afterExpiryTick nor the proof holds tick 1: that no tick is at or before expiry ${expiryAtMs} is not proven`,
    );
  }
  return problems;
}

/**
 * How far a price is from its reference, in basis points of the reference: |price - ref| / ref × 10 000.
 *
 * @param {number} price
 * @param {number} referencePrice a positive number
 * @returns {number}
 */
export function divergenceBps(price, referencePrice) {
  return (Math.abs(price - referencePrice) / referencePrice) * BASIS_POINTS_PER_UNIT;
}

/**
 * Whether two feeds agree: the price is within `spreadBps` of the reference. Compared as
 * |price - ref| × 10 000 <= spread × ref, without a division, so equal inputs always decide alike.
 *
 * @param {number} price
 * @param {number} referencePrice
 * @param {number} spreadBps
 * @returns {boolean}
 */
export function feedsAgree(price, referencePrice, spreadBps) {
  return Math.abs(price - referencePrice) * BASIS_POINTS_PER_UNIT <= spreadBps * referencePrice;
}

/**
 * The cross-check of a trade against its pair's reference feed, at entry (the entry price against
 * the reference then) and at expiry (the exit price against the reference then; skipped when the
 * trade has no exit price). A moment without a reference price decides nothing: the trade settles
 * on its own feed, and the decision says the reference was unavailable.
 *
 * @param {number} entryPrice
 * @param {ExitPrice | undefined} exit
 * @param {ReferencePrices} reference
 * @returns {ReferenceDecision}
 */
export function referenceDecision(entryPrice, exit, reference) {
  const { spreadBps, atEntry, atExpiry } = reference;
  if (atEntry !== null && !feedsAgree(entryPrice, atEntry, spreadBps)) return 'feeds_diverged_at_entry';
  if (exit && atExpiry !== null && !feedsAgree(exit.price, atExpiry, spreadBps))
    return 'feeds_diverged_at_expiry';
  if (atEntry === null || (exit !== undefined && atExpiry === null)) return 'reference_unavailable';
  return 'agreed';
}

/**
 * How a trade settles:
 *
 * | exit                                        | outcome                     | rule                |
 * | ------------------------------------------- | --------------------------- | ------------------- |
 * | none, or after expiry                       | void                        | `no_exit_tick`      |
 * | more than 10 000 ms before expiry           | void                        | `exit_tick_too_old` |
 * | price equal to the entry price              | draw                        | `exit_equals_entry` |
 * | price above the entry price                 | UP won, DOWN lost           | `exit_above_entry`  |
 * | price below the entry price                 | UP lost, DOWN won           | `exit_below_entry`  |
 *
 * With a reference feed, a disagreement beyond the pair's spread at entry or expiry voids the
 * trade first (`feeds_diverged_at_entry`, `feeds_diverged_at_expiry`).
 *
 * @param {Direction} direction
 * @param {number} entryPrice
 * @param {number} expiryAtMs
 * @param {ExitPrice | undefined} exit
 * @param {ReferencePrices} [reference] for a pair with a reference feed: before the table, the
 *   trade is void (`feeds_diverged_at_entry`, `feeds_diverged_at_expiry`) when the feeds disagreed
 *   by more than the spread at entry or at expiry (`referenceDecision`)
 * @returns {{ outcome: Outcome, rule: Rule }}
 */
export function settlementRule(direction, entryPrice, expiryAtMs, exit, reference) {
  const usable = usableExit(expiryAtMs, exit);
  if (reference) {
    const decision = referenceDecision(entryPrice, usable, reference);
    if (decision === 'feeds_diverged_at_entry' || decision === 'feeds_diverged_at_expiry') {
      return { outcome: 'void', rule: decision };
    }
  }
  if (!exit || exit.atMs > expiryAtMs) return { outcome: 'void', rule: 'no_exit_tick' };
  if (expiryAtMs - exit.atMs > EXIT_TICK_AGE_MS_MAX) return { outcome: 'void', rule: 'exit_tick_too_old' };
  if (exit.price === entryPrice) return { outcome: 'draw', rule: 'exit_equals_entry' };
  const up = exit.price > entryPrice;
  return {
    outcome: (direction === 'UP') === up ? 'won' : 'lost',
    rule: up ? 'exit_above_entry' : 'exit_below_entry',
  };
}

/**
 * The exit tick a trade can settle on: at or before expiry and at most EXIT_TICK_AGE_MS_MAX older;
 * undefined otherwise (the trade is then void, and the reference feed is not compared at expiry).
 *
 * @template {{ atMs: number }} T
 * @param {number} expiryAtMs
 * @param {T | undefined} exit
 * @returns {T | undefined}
 */
export function usableExit(expiryAtMs, exit) {
  return exit && exit.atMs <= expiryAtMs && expiryAtMs - exit.atMs <= EXIT_TICK_AGE_MS_MAX ? exit : undefined;
}

/**
 * Profit in cents: a win earns the stake times the payout rounded down to the cent, a loss costs
 * the stake, a draw or void earns nothing.
 *
 * @param {number} stakeCents a non-negative safe integer
 * @param {number} payoutBasisPoints payout % × 100 (82.5% is 8250), a non-negative safe integer
 * @param {Outcome} outcome
 * @returns {number}
 * @throws {RangeError} when an amount is not a non-negative safe integer, or the product
 *   stakeCents × payoutBasisPoints is not a safe integer
 */
export function pnlCents(stakeCents, payoutBasisPoints, outcome) {
  if (!Number.isSafeInteger(stakeCents) || stakeCents < 0) {
    throw new RangeError(`stakeCents ${String(stakeCents)} is not a non-negative safe integer`);
  }
  if (!Number.isSafeInteger(payoutBasisPoints) || payoutBasisPoints < 0) {
    throw new RangeError(`payoutBasisPoints ${String(payoutBasisPoints)} is not a non-negative safe integer`);
  }
  switch (outcome) {
    case 'won': {
      const product = stakeCents * payoutBasisPoints;
      if (!Number.isSafeInteger(product)) {
        throw new RangeError(
          `stakeCents × payoutBasisPoints (${stakeCents} × ${payoutBasisPoints}) is not a safe integer`,
        );
      }
      // Exact integer division rounding down: the remainder is taken off before dividing.
      return (product - (product % BASIS_POINTS_PER_UNIT)) / BASIS_POINTS_PER_UNIT;
    }
    case 'lost':
      return 0 - stakeCents;
    case 'draw':
    case 'void':
      return 0;
    default:
      throw new TypeError(`outcome ${JSON.stringify(outcome)} is not won, lost, draw or void`);
  }
}
