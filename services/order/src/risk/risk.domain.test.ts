import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideBatch, type BatchPlacement, type BatchState } from '../trades/place-batch.domain';
import {
  breakerTrips,
  breakerWindowStart,
  checkRealPlacement,
  effectiveCap,
  EMPTY_BOOK,
  exposureCents,
  offeredPayoutPct,
  potentialProfitCents,
  suspensionReason,
  UNCAPPED_TRADER,
  withTrade,
  type PairBook,
  type PairRisk,
  type PairRiskSettings,
} from './risk.domain';

const SETTINGS: PairRiskSettings = {
  capCents: { UP: null, DOWN: null },
  skewMaxPct: 0,
  skewFullAtCents: 100_000,
  lossLimitCents: null,
  lossWindowMin: 60,
};

function bookOf(trades: { direction: 'UP' | 'DOWN'; amountCents: number; payoutPct?: number }[]): PairBook {
  return trades.reduce((book, t) => withTrade(book, { payoutPct: 80, ...t }), EMPTY_BOOK);
}

function codeOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('exposure', () => {
  it("is the README's example: $100 and $50 UP at 80% against $30 DOWN", () => {
    const book = bookOf([
      { direction: 'UP', amountCents: 10_000 },
      { direction: 'UP', amountCents: 5_000 },
      { direction: 'DOWN', amountCents: 3_000 },
    ]);
    expect(exposureCents(book, 'UP')).toBe(9_000);
    expect(exposureCents(book, 'DOWN')).toBe(-12_600);
  });

  it("counts a trade's potential profit as settlement pays it, rounded down to the cent", () => {
    expect(potentialProfitCents(1_001, 80)).toBe(800);
    expect(potentialProfitCents(333, 77.5)).toBe(258);
    expect(withTrade(EMPTY_BOOK, { direction: 'DOWN', amountCents: 1_001, payoutPct: 80 }).DOWN).toEqual({
      openTrades: 1,
      stakeCents: 1_001,
      profitCents: 800,
    });
  });

  it('takes a settled trade back out exactly', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            direction: fc.constantFrom('UP' as const, 'DOWN' as const),
            amountCents: fc.integer({ min: 100, max: 1_000_000 }),
            payoutPct: fc.integer({ min: 1, max: 99 }),
          }),
          { maxLength: 20 },
        ),
        (trades) => {
          const book = trades.reduce((b, t) => withTrade(b, t), EMPTY_BOOK);
          expect(trades.reduce((b, t) => withTrade(b, t, -1), book)).toEqual(EMPTY_BOOK);
        },
      ),
    );
  });
});

describe('payout skew', () => {
  const skew = { skewMaxPct: 10, skewFullAtCents: 10_000 };

  it('drops the heavier side by whole points up to the maximum, and leaves the lighter side alone', () => {
    const book = bookOf([{ direction: 'UP', amountCents: 5_000 }]);
    expect(offeredPayoutPct(80, skew, book, 'UP')).toBe(75);
    expect(offeredPayoutPct(80, skew, book, 'DOWN')).toBe(80);
    expect(offeredPayoutPct(80, skew, bookOf([{ direction: 'UP', amountCents: 999 }]), 'UP')).toBe(80);
    expect(offeredPayoutPct(80, skew, bookOf([{ direction: 'UP', amountCents: 1_000 }]), 'UP')).toBe(79);
    expect(offeredPayoutPct(80, skew, bookOf([{ direction: 'UP', amountCents: 1_000_000 }]), 'UP')).toBe(70);
    expect(offeredPayoutPct(80, { ...skew, skewMaxPct: 0 }, book, 'UP')).toBe(80);
    // A balanced book pays the pair's payout on both sides.
    const balanced = bookOf([
      { direction: 'UP', amountCents: 5_000 },
      { direction: 'DOWN', amountCents: 5_000 },
    ]);
    expect([
      offeredPayoutPct(80, skew, balanced, 'UP'),
      offeredPayoutPct(80, skew, balanced, 'DOWN'),
    ]).toEqual([80, 80]);
  });

  it('is bounded and monotonic: more imbalance never pays the heavier side more, never below base − max or 1%', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (base, skewMaxPct, skewFullAtCents, up, down, more) => {
          const settings = { skewMaxPct, skewFullAtCents };
          const book = bookOf([
            { direction: 'UP', amountCents: up },
            { direction: 'DOWN', amountCents: down },
          ]);
          const heavier = withTrade(book, { direction: 'UP', amountCents: more, payoutPct: 80 });
          const now = offeredPayoutPct(base, settings, book, 'UP');
          expect(offeredPayoutPct(base, settings, heavier, 'UP')).toBeLessThanOrEqual(now);
          expect(now).toBeLessThanOrEqual(base);
          expect(now).toBeGreaterThanOrEqual(Math.max(Math.min(base, 1), base - skewMaxPct));
          expect(Number.isInteger(now - base)).toBe(true);
        },
      ),
    );
  });
});

describe('the caps of a real placement', () => {
  const risk = (
    settings: Partial<PairRiskSettings>,
    book = EMPTY_BOOK,
    suspendedReason: string | null = null,
  ): PairRisk => ({
    settings: { ...SETTINGS, ...settings },
    book,
    suspendedReason,
  });
  const trade = (amountCents: number, direction: 'UP' | 'DOWN' = 'UP') => ({
    direction,
    amountCents,
    payoutPct: 80,
  });

  it('lets a trade take the exposure exactly to the cap, not a cent past it', () => {
    const capped = risk({ capCents: { UP: 800, DOWN: null } });
    expect(
      codeOf(() => checkRealPlacement('BTCUSDT', capped, UNCAPPED_TRADER, trade(1_000))),
    ).toBeUndefined();
    expect(codeOf(() => checkRealPlacement('BTCUSDT', capped, UNCAPPED_TRADER, trade(1_002)))).toBe(
      'EXPOSURE_CAP_REACHED',
    );
    // The other direction is not limited by UP's cap, and lowers UP's exposure.
    expect(
      codeOf(() => checkRealPlacement('BTCUSDT', capped, UNCAPPED_TRADER, trade(1_000_000, 'DOWN'))),
    ).toBeUndefined();
    // A cap of 0 closes the side to any trade that would cost the house.
    expect(
      codeOf(() =>
        checkRealPlacement('BTCUSDT', risk({ capCents: { UP: 0, DOWN: null } }), UNCAPPED_TRADER, trade(100)),
      ),
    ).toBe('EXPOSURE_CAP_REACHED');
  });

  it("checks the suspension first, then the trader's open trades, open stake, then the pair's exposure", () => {
    const everything = risk({ capCents: { UP: 0, DOWN: 0 } }, EMPTY_BOOK, 'breaker');
    const trader = { openTrades: 3, openStakeCents: 9_000, openTradesMax: 3, openStakeCentsMax: 9_500 };
    expect(codeOf(() => checkRealPlacement('X', everything, trader, trade(1_000)))).toBe('PAIR_SUSPENDED');
    const open = risk({ capCents: { UP: 0, DOWN: 0 } });
    expect(codeOf(() => checkRealPlacement('X', open, trader, trade(1_000)))).toBe('OPEN_TRADES_CAP_REACHED');
    expect(codeOf(() => checkRealPlacement('X', open, { ...trader, openTradesMax: 4 }, trade(1_000)))).toBe(
      'OPEN_STAKE_CAP_REACHED',
    );
    expect(codeOf(() => checkRealPlacement('X', open, { ...trader, openTradesMax: 4 }, trade(500)))).toBe(
      'EXPOSURE_CAP_REACHED',
    );
  });

  it("takes the lower of the default and the trader's own cap", () => {
    expect(effectiveCap(null, null)).toBeNull();
    expect(effectiveCap(100, null)).toBe(100);
    expect(effectiveCap(null, 50)).toBe(50);
    expect(effectiveCap(100, 50)).toBe(50);
    expect(effectiveCap(100, 500)).toBe(100);
  });
});

describe('a batch of placements under the caps', () => {
  const NOW = 1_000_000;
  function state(risk: PairRisk, users: string[]): BatchState<never> {
    return {
      now: NOW,
      stakeCentsMax: 1_000_000,
      balances: new Map(users.map((u) => [u, { real: 1_000_000, bonus: 0, demo: 1_000_000 }])),
      pairs: new Map([['BTCUSDT', { symbol: 'BTCUSDT', active: true, payoutPct: 80 }]]),
      latestTicks: new Map([['BTCUSDT', { price: 100, atMs: NOW, tickId: null }]]),
      activeBonusCents: new Map<string, number>(),
      committed: new Map<string, never>(),
      risk: new Map([['BTCUSDT', risk]]),
      traders: new Map(users.map((u) => [u, { ...UNCAPPED_TRADER, openTradesMax: 2 }])),
    };
  }
  const placement = (userId: string, more: Partial<BatchPlacement> = {}): BatchPlacement => ({
    userId,
    pair: 'BTCUSDT',
    direction: 'UP',
    amountCents: 1_000,
    durationSec: 60,
    accountType: 'real',
    ...more,
  });

  it('decides each placement on the trades accepted before it in the batch', () => {
    const risk: PairRisk = {
      settings: { ...SETTINGS, capCents: { UP: 2_400, DOWN: null } },
      book: EMPTY_BOOK,
      suspendedReason: null,
    };
    const outcomes = decideBatch(
      [
        placement('a'),
        placement('b'),
        placement('c', { accountType: 'demo' }),
        placement('c'),
        placement('d'),
        placement('a', { direction: 'DOWN' }),
        placement('d'),
      ],
      state(risk, ['a', 'b', 'c', 'd']),
    );
    expect(outcomes.map((o) => (o.kind === 'refused' ? o.error.code : o.kind))).toEqual([
      'accepted',
      'accepted',
      'accepted', // demo: no house exposure
      'accepted', // $24 of exposure: at the cap
      'EXPOSURE_CAP_REACHED',
      'accepted', // DOWN lowers UP's exposure by $10 ...
      'accepted', // ... which the next UP takes
    ]);
  });

  it("counts a trader's accepted trades in the batch against their cap", () => {
    const outcomes = decideBatch(
      [placement('a'), placement('a'), placement('a')],
      state({ settings: SETTINGS, book: EMPTY_BOOK, suspendedReason: null }, ['a']),
    );
    expect(outcomes.map((o) => (o.kind === 'refused' ? o.error.code : o.kind))).toEqual([
      'accepted',
      'accepted',
      'OPEN_TRADES_CAP_REACHED',
    ]);
  });

  it('fixes each trade at the payout of the book before it, and refuses one shown more', () => {
    const risk: PairRisk = {
      settings: { ...SETTINGS, skewMaxPct: 10, skewFullAtCents: 10_000 },
      book: EMPTY_BOOK,
      suspendedReason: null,
    };
    const outcomes = decideBatch(
      [
        placement('a', { amountCents: 5_000, expectedPayoutPct: 80 }),
        placement('b', { amountCents: 1_000, expectedPayoutPct: 80 }),
        placement('b', { amountCents: 1_000, expectedPayoutPct: 75 }),
      ],
      state(risk, ['a', 'b']),
    );
    expect(
      outcomes.map((o) =>
        o.kind === 'accepted' ? o.trade.payoutPct : o.kind === 'refused' ? o.error.code : o.kind,
      ),
    ).toEqual([80, 'PAYOUT_CHANGED', 75]);
  });
});

describe('the loss breaker', () => {
  it('trips strictly below minus the limit', () => {
    expect(breakerTrips(-5_000, 5_000)).toBe(false);
    expect(breakerTrips(-5_001, 5_000)).toBe(true);
    expect(breakerTrips(-1_000_000, null)).toBe(false);
  });

  it('counts the window in whole minutes, from the first whole minute after a resume', () => {
    const now = Date.UTC(2026, 10, 25, 12, 30, 15);
    expect(breakerWindowStart(now, 60, null)).toBe(Date.UTC(2026, 10, 25, 11, 31));
    expect(breakerWindowStart(now, 60, Date.UTC(2026, 10, 25, 12, 10, 40))).toBe(
      Date.UTC(2026, 10, 25, 12, 11),
    );
    expect(breakerWindowStart(now, 60, Date.UTC(2026, 10, 25, 9, 0))).toBe(Date.UTC(2026, 10, 25, 11, 31));
  });

  it('says why it tripped', () => {
    expect(suspensionReason(-6_000, 5_000, 60)).toBe(
      'House P/L −$60.00 over 60 min is below the limit of −$50.00',
    );
  });
});
