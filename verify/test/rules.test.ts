import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divergenceBps,
  ENTRY_PRICE_AGE_MS_MAX,
  entryPriceFresh,
  entryTickProblems,
  EXIT_TICK_AGE_MS_MAX,
  exitTickProblems,
  feedsAgree,
  pnlCents,
  referenceDecision,
  settlementRule,
  usableExit,
  type Direction,
  type Outcome,
} from '../src/rules.js';

const EXPIRY = 1_764_000_060_000;

describe('settlementRule', () => {
  it.each([
    ['no exit tick', 'UP', undefined, 'void', 'no_exit_tick'],
    ['no exit tick (DOWN)', 'DOWN', undefined, 'void', 'no_exit_tick'],
    ['an exit tick after expiry', 'UP', { price: 101, atMs: EXPIRY + 1 }, 'void', 'no_exit_tick'],
    ['an exit tick 10 001 ms old', 'UP', { price: 101, atMs: EXPIRY - 10_001 }, 'void', 'exit_tick_too_old'],
    [
      'an exit tick 10 001 ms old at the entry price',
      'DOWN',
      { price: 100, atMs: EXPIRY - 10_001 },
      'void',
      'exit_tick_too_old',
    ],
    [
      'an exit tick exactly 10 000 ms old',
      'UP',
      { price: 101, atMs: EXPIRY - 10_000 },
      'won',
      'exit_above_entry',
    ],
    ['an exit tick at expiry, equal', 'UP', { price: 100, atMs: EXPIRY }, 'draw', 'exit_equals_entry'],
    ['equal (DOWN)', 'DOWN', { price: 100, atMs: EXPIRY - 5 }, 'draw', 'exit_equals_entry'],
    ['above, UP', 'UP', { price: 100.00000001, atMs: EXPIRY - 5 }, 'won', 'exit_above_entry'],
    ['above, DOWN', 'DOWN', { price: 100.5, atMs: EXPIRY - 5 }, 'lost', 'exit_above_entry'],
    ['below, UP', 'UP', { price: 99.99999999, atMs: EXPIRY - 5 }, 'lost', 'exit_below_entry'],
    ['below, DOWN', 'DOWN', { price: 99.5, atMs: EXPIRY - 5 }, 'won', 'exit_below_entry'],
  ] as const)('%s: %s -> %s (%s)', (_name, direction, exit, outcome, rule) => {
    expect(settlementRule(direction, 100, EXPIRY, exit)).toEqual({ outcome, rule });
  });

  it('keeps the exit window at 10 s', () => {
    expect(EXIT_TICK_AGE_MS_MAX).toBe(10_000);
  });

  it("decides as the settlement service's outcome() did before it moved here", () => {
    // services/settlement/src/settlement.domain.ts `outcome`, as it was.
    const legacyOutcome = (
      direction: Direction,
      entryPrice: number,
      expiryAtMs: number,
      exit: { price: number; atMs: number } | undefined,
    ): Outcome => {
      if (!exit || exit.atMs > expiryAtMs || expiryAtMs - exit.atMs > 10_000) return 'void';
      if (exit.price === entryPrice) return 'draw';
      const up = exit.price > entryPrice;
      return (direction === 'UP') === up ? 'won' : 'lost';
    };
    const price = fc.integer({ min: 1, max: 2_000 }).map((cents) => cents / 100);
    fc.assert(
      fc.property(
        fc.constantFrom<Direction>('UP', 'DOWN'),
        price,
        fc.option(fc.record({ price, ageMs: fc.integer({ min: -3, max: 10_003 }) }), { nil: undefined }),
        (direction, entry, exit) => {
          const exitTick = exit && { price: exit.price, atMs: EXPIRY - exit.ageMs };
          expect(settlementRule(direction, entry, EXPIRY, exitTick).outcome).toBe(
            legacyOutcome(direction, entry, EXPIRY, exitTick),
          );
        },
      ),
    );
  });
});

describe('usableExit', () => {
  const expiry = 100_000;
  it('takes a tick at or before expiry and at most EXIT_TICK_AGE_MS_MAX older, nothing else', () => {
    const tick = (atMs: number) => ({ atMs, price: 1 });
    expect(usableExit(expiry, tick(expiry))).toEqual(tick(expiry));
    expect(usableExit(expiry, tick(expiry - EXIT_TICK_AGE_MS_MAX))).toEqual(
      tick(expiry - EXIT_TICK_AGE_MS_MAX),
    );
    expect(usableExit(expiry, tick(expiry - EXIT_TICK_AGE_MS_MAX - 1))).toBeUndefined();
    expect(usableExit(expiry, tick(expiry + 1))).toBeUndefined();
    expect(usableExit(expiry, undefined)).toBeUndefined();
  });
});

describe('pnlCents', () => {
  it('pays stake × payout rounded down to the cent on a win', () => {
    expect(pnlCents(1_000, 8_000, 'won')).toBe(800);
    expect(pnlCents(1_000, 8_250, 'won')).toBe(825); // 82.5%
    expect(pnlCents(999, 8_250, 'won')).toBe(824); // 824.175
    expect(pnlCents(1, 8_250, 'won')).toBe(0); // 0.825
    expect(pnlCents(12_345, 9_999, 'won')).toBe(12_343); // 12343.7655
    expect(pnlCents(3, 10_000, 'won')).toBe(3);
    expect(pnlCents(0, 8_000, 'won')).toBe(0);
    expect(pnlCents(900_719_925_474, 10_000, 'won')).toBe(900_719_925_474);
  });

  it('costs the stake on a loss and nothing on a draw or void', () => {
    expect(pnlCents(1_000, 8_250, 'lost')).toBe(-1_000);
    expect(pnlCents(0, 8_250, 'lost')).toBe(0);
    expect(Object.is(pnlCents(0, 8_250, 'lost'), 0)).toBe(true);
    expect(pnlCents(1_000, 8_250, 'draw')).toBe(0);
    expect(pnlCents(1_000, 8_250, 'void')).toBe(0);
  });

  it('refuses amounts that are not non-negative safe integers, and an unsafe product', () => {
    expect(() => pnlCents(10.5, 8_000, 'won')).toThrow(RangeError);
    expect(() => pnlCents(-1, 8_000, 'lost')).toThrow(RangeError);
    expect(() => pnlCents(1_000, 82.5, 'won')).toThrow(RangeError);
    expect(() => pnlCents(Number.MAX_SAFE_INTEGER, 2, 'won')).toThrow(RangeError);
    expect(() => pnlCents(1_000, 8_000, 'pending' as Outcome)).toThrow(TypeError);
  });

  it("pays as the settlement service's pnlCents(amount, payoutPct) did before it moved here", () => {
    const legacy = (amountCents: number, payoutPct: number) =>
      Math.floor((amountCents * Math.round(payoutPct * 100)) / 10_000);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (stake, bp) => {
          expect(pnlCents(stake, bp, 'won')).toBe(legacy(stake, bp / 100));
        },
      ),
    );
  });
});

describe('the reference feed check', () => {
  const exit = { price: 101, atMs: 60_000 };

  it('measures divergence in basis points of the reference', () => {
    expect(divergenceBps(101, 100)).toBeCloseTo(100, 9);
    expect(divergenceBps(99, 100)).toBeCloseTo(100, 9);
    expect(divergenceBps(100, 100)).toBe(0);
  });

  it('agrees up to and including the spread, and no further', () => {
    expect(feedsAgree(100.5, 100, 50)).toBe(true);
    expect(feedsAgree(99.5, 100, 50)).toBe(true);
    expect(feedsAgree(100.51, 100, 50)).toBe(false);
    expect(feedsAgree(99.49, 100, 50)).toBe(false);
  });

  it('decides at entry first, then at expiry', () => {
    const spreadBps = 50;
    expect(referenceDecision(100, exit, { spreadBps, atEntry: 100.2, atExpiry: 101.3 })).toBe('agreed');
    expect(referenceDecision(100, exit, { spreadBps, atEntry: 102, atExpiry: 130 })).toBe(
      'feeds_diverged_at_entry',
    );
    expect(referenceDecision(100, exit, { spreadBps, atEntry: 100, atExpiry: 103 })).toBe(
      'feeds_diverged_at_expiry',
    );
  });

  it('settles on the own feed, saying so, when the reference had no price', () => {
    expect(referenceDecision(100, exit, { spreadBps: 50, atEntry: null, atExpiry: 101 })).toBe(
      'reference_unavailable',
    );
    expect(referenceDecision(100, exit, { spreadBps: 50, atEntry: 100, atExpiry: null })).toBe(
      'reference_unavailable',
    );
    // A divergence still voids when the other moment had no reference.
    expect(referenceDecision(100, exit, { spreadBps: 50, atEntry: null, atExpiry: 110 })).toBe(
      'feeds_diverged_at_expiry',
    );
    // No exit price: nothing to compare at expiry.
    expect(referenceDecision(100, undefined, { spreadBps: 50, atEntry: 100, atExpiry: null })).toBe('agreed');
  });

  it('voids a divergence before any other rule, and otherwise leaves the table alone', () => {
    const reference = { spreadBps: 50, atEntry: 100, atExpiry: 120 };
    expect(settlementRule('UP', 100, 60_000, exit, reference)).toEqual({
      outcome: 'void',
      rule: 'feeds_diverged_at_expiry',
    });
    expect(
      settlementRule('UP', 100, 60_000, undefined, { spreadBps: 50, atEntry: 120, atExpiry: null }),
    ).toEqual({
      outcome: 'void',
      rule: 'feeds_diverged_at_entry',
    });
    expect(settlementRule('UP', 100, 60_000, exit, { spreadBps: 50, atEntry: 100, atExpiry: 101 })).toEqual(
      settlementRule('UP', 100, 60_000, exit),
    );
    // An exit tick too old to settle on is not compared: the trade is void for its own reason.
    const old = { price: 150, atMs: 40_000 };
    expect(settlementRule('UP', 100, 60_000, old, { spreadBps: 50, atEntry: 100, atExpiry: 100 }).rule).toBe(
      'exit_tick_too_old',
    );
  });
});

describe('the entry rule', () => {
  const ACCEPTED = 1_764_000_000_500;
  const tick = (atMs: number, price = '95012.5') => ({ seq: 2, atMs, price });

  it('takes a tick at most 5 000 ms before the acceptance, never one after it', () => {
    expect(ENTRY_PRICE_AGE_MS_MAX).toBe(5_000);
    expect(entryPriceFresh(ACCEPTED, ACCEPTED)).toBe(true);
    expect(entryPriceFresh(ACCEPTED - 5_000, ACCEPTED)).toBe(true);
    expect(entryPriceFresh(ACCEPTED - 5_001, ACCEPTED)).toBe(false);
    expect(entryPriceFresh(ACCEPTED + 1, ACCEPTED)).toBe(false);
  });

  it('proves the entry price with the entry tick, compared by value', () => {
    expect(entryTickProblems('95012.5', ACCEPTED, tick(ACCEPTED - 130))).toEqual([]);
    expect(entryTickProblems('95012.50', ACCEPTED, tick(ACCEPTED - 130))).toEqual([]);
    expect(entryTickProblems('95012.6', ACCEPTED, tick(ACCEPTED - 130))).toEqual([
      'entryTick 2 price 95012.5 is not the entry price 95012.6',
    ]);
  });

  it('names a tick after the acceptance, one too old, and a missing one', () => {
    expect(entryTickProblems('95012.5', ACCEPTED, tick(ACCEPTED + 1))).toEqual([
      `entryTick 2 at ${ACCEPTED + 1} is after the trade was accepted at ${ACCEPTED}`,
    ]);
    expect(entryTickProblems('95012.5', ACCEPTED, tick(ACCEPTED - 5_001))).toEqual([
      `entryTick 2 at ${ACCEPTED - 5_001} is 5001 ms before the acceptance at ${ACCEPTED}: a trade enters only on a tick at most 5000 ms old`,
    ]);
    expect(entryTickProblems('95012.5', ACCEPTED, null)).toEqual([
      "the receipt names no entry tick: the entry price 95012.5 is not proven to be a stored tick's",
    ]);
  });
});

describe('the exit rule', () => {
  const at = (seq: number, offsetMs: number) => ({ seq, atMs: EXPIRY + offsetMs });

  it('is proven by the next tick of the chain, later than the expiry', () => {
    expect(exitTickProblems(EXPIRY, at(3, -130), at(4, 412))).toEqual([]);
    expect(exitTickProblems(EXPIRY, at(3, 0), at(4, 1))).toEqual([]);
    // The next tick may come from the proof instead of afterExpiryTick.
    expect(exitTickProblems(EXPIRY, at(3, -130), null, [at(2, -59_000), at(4, 412), at(5, 900)])).toEqual([]);
    // No tick at or before expiry: the first tick after it is the pair's tick 1.
    expect(exitTickProblems(EXPIRY, null, at(1, 5))).toEqual([]);
  });

  it('fails, not warns, when nothing proves the exit tick the last', () => {
    expect(exitTickProblems(EXPIRY, at(3, -130), null)).toEqual([
      `neither afterExpiryTick nor the proof holds tick 4, the tick after exitTick 3: that it is the last tick at or before expiry ${EXPIRY} is not proven`,
    ]);
    expect(exitTickProblems(EXPIRY, null, null)).toEqual([
      `neither afterExpiryTick nor the proof holds tick 1: that no tick is at or before expiry ${EXPIRY} is not proven`,
    ]);
  });

  it('fails an earlier exit tick when a tick given after it is at or before expiry', () => {
    expect(exitTickProblems(EXPIRY, at(2, -59_630), null, [at(3, -130), at(4, 412)])).toEqual([
      `tick 3 at ${EXPIRY - 130} is at or before expiry ${EXPIRY}: exitTick 2 is not the last tick at or before expiry`,
    ]);
    expect(exitTickProblems(EXPIRY, at(2, -59_630), at(3, -130))).toEqual([
      `afterExpiryTick 3 at ${EXPIRY - 130} is not after expiry ${EXPIRY}`,
    ]);
    expect(exitTickProblems(EXPIRY, null, at(4, 412), [at(2, -59_630)])).toEqual([
      'exitTick is null, but tick 3 comes before afterExpiryTick 4: it is at or before expiry, or it would be the first tick after it',
      `tick 2 at ${EXPIRY - 59_630} is at or before expiry ${EXPIRY}, yet the receipt names no exit tick`,
      `neither afterExpiryTick nor the proof holds tick 1: that no tick is at or before expiry ${EXPIRY} is not proven`,
    ]);
  });

  it('names an exit tick after expiry and an after-expiry tick that does not follow it', () => {
    expect(exitTickProblems(EXPIRY, at(4, 1), at(5, 2))).toEqual([
      `exitTick 4 at ${EXPIRY + 1} is after expiry ${EXPIRY}`,
    ]);
    expect(exitTickProblems(EXPIRY, at(3, -130), at(6, 412))).toEqual([
      'afterExpiryTick is tick 6, not tick 4 after exitTick 3',
      `neither afterExpiryTick nor the proof holds tick 4, the tick after exitTick 3: that it is the last tick at or before expiry ${EXPIRY} is not proven`,
    ]);
  });
});
