import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chanceZScore,
  followsLargeMove,
  priorMoveBps,
  toxicityOf,
  type Direction,
  type ScoredTrade,
} from './toxicity.domain';

/**
 * Synthetic traders from a seeded generator, so every run scores the same trades: one who trades
 * at random, one who got lucky on a few trades, and a latency arbitrageur who bets on moves the
 * platform's price has already made.
 */

/** mulberry32: a tiny deterministic PRNG returning floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STAKE_CENTS = 1_000;
const PAYOUT_PCT = 80;

function trade(won: boolean, direction: Direction, move: number | null, payoutPct = PAYOUT_PCT): ScoredTrade {
  return {
    stakeCents: STAKE_CENTS,
    payoutPct,
    status: won ? 'won' : 'lost',
    pnlCents: won ? Math.floor((STAKE_CENTS * payoutPct) / 100) : -STAKE_CENTS,
    direction,
    priorMoveBps: move,
  };
}

/** A 5 s move of a liquid pair: normal with a 6 bps deviation (Box-Muller); unknown one time in 20. */
function marketMove(random: () => number): number | null {
  if (random() < 0.05) return null;
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return normal * 6;
}

/** A trade whose direction, outcome and prior move are independent coin flips and draws. */
function randomTrade(random: () => number, won = random() < 0.5): ScoredTrade {
  return trade(won, random() < 0.5 ? 'UP' : 'DOWN', marketMove(random));
}

function randomTrader(seed: number, n = 300): ScoredTrade[] {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => randomTrade(random));
}

function luckyTrader(seed: number): ScoredTrade[] {
  const random = mulberry32(seed);
  return Array.from({ length: 8 }, (_, i) => randomTrade(random, i !== 3));
}

/** 7 trades in 10 follow a 15–30 bps move in its direction and win 80 % of the time; the rest are random. */
function arbitrageur(seed: number): ScoredTrade[] {
  const random = mulberry32(seed);
  return Array.from({ length: 300 }, (_, i) => {
    if (i % 10 >= 7) return randomTrade(random);
    const direction: Direction = random() < 0.5 ? 'UP' : 'DOWN';
    const size = 15 + 15 * random();
    return trade(random() < 0.8, direction, direction === 'UP' ? size : -size);
  });
}

describe('toxicityOf on synthetic traders', () => {
  const random = toxicityOf(randomTrader(1));
  const lucky = toxicityOf(luckyTrader(2));
  const arb = toxicityOf(arbitrageur(3));

  it('scores a random trader low: P/L within chance, few trades after moves', () => {
    expect(random.trades).toBe(300);
    expect(Math.abs(random.zScore)).toBeLessThan(2);
    expect(random.afterMovePct).toBeLessThan(10);
    expect(random.latency).toBe(0);
    expect(random.score).toBeLessThan(20);
  });

  it('scores a lucky trader moderately: 7 of 8 is unlikely, but little is proved by 8 trades', () => {
    expect(lucky).toMatchObject({ trades: 8, wins: 7, profitFactor: (7 * 800) / 1_000 });
    expect(lucky.zScore).toBeGreaterThan(1.5);
    expect(lucky.profit).toBeLessThan(0.25);
    expect(lucky.score).toBeLessThan(40);
  });

  it('scores a latency arbitrageur high, on every component', () => {
    expect(arb.zScore).toBeGreaterThan(5);
    expect(arb.skill).toBe(1);
    expect(arb.afterMovePct).toBeGreaterThan(65);
    expect(arb.latency).toBe(1);
    expect(arb.profitFactor).toBeGreaterThan(1.5);
    expect(arb.score).toBeGreaterThan(70);
  });

  it('orders them random < lucky < arbitrageur', () => {
    expect(random.score).toBeLessThan(lucky.score);
    expect(lucky.score).toBeLessThan(arb.score);
  });

  it('keeps these orders across seeds, a random trader under 20 as often as chance allows', () => {
    const seeds = Array.from({ length: 200 }, (_, i) => 100 + i);
    const randoms = seeds.map((seed) => toxicityOf(randomTrader(seed)).score).sort((a, b) => a - b);
    // A fair-coin trader is 1.3 standard deviations above chance (score 20) about one time in ten.
    expect(randoms[100]).toBeLessThan(5);
    expect(randoms.filter((score) => score >= 20).length).toBeLessThan(0.15 * seeds.length);
    const luckies = seeds.map((seed) => toxicityOf(luckyTrader(seed)).score);
    expect(luckies.filter((score) => score >= 40).length).toBeLessThan(0.1 * seeds.length);
    for (const seed of seeds) expect(toxicityOf(arbitrageur(seed)).score).toBeGreaterThan(70);
  });
});

describe('toxicityOf edge cases', () => {
  it('scores no trades 0 with zero components and no profit factor', () => {
    expect(toxicityOf([])).toEqual({
      score: 0,
      trades: 0,
      wins: 0,
      zScore: 0,
      afterMovePct: 0,
      profitFactor: null,
      skill: 0,
      latency: 0,
      profit: 0,
    });
  });

  it('scores all losses 0, even when every trade followed a move', () => {
    const trades = Array.from({ length: 20 }, () => trade(false, 'UP', 25));
    const t = toxicityOf(trades);
    expect(t).toMatchObject({
      score: 0,
      wins: 0,
      afterMovePct: 100,
      profitFactor: 0,
      skill: 0,
      latency: 0,
      profit: 0,
    });
    expect(t.zScore).toBeLessThan(0);
  });

  it('has no profit factor without a loss, and counts it as 3 shrunk by the sample size', () => {
    const t = toxicityOf(Array.from({ length: 10 }, () => trade(true, 'DOWN', 0)));
    expect(t.profitFactor).toBeNull();
    expect(t.profit).toBeCloseTo(10 / 40);
    expect(t.latency).toBe(0);
  });

  it('handles payout 0: a win earns nothing, so no profit, but winning every trade is still skill', () => {
    const allWon = toxicityOf(Array.from({ length: 16 }, () => trade(true, 'UP', null, 0)));
    expect(allWon).toMatchObject({ profitFactor: null, profit: 0, afterMovePct: 0 });
    // Each trade beats its chance mean (−s/2) by s/2 with σ = s/2, so z = √n.
    expect(allWon.zScore).toBeCloseTo(4);
    expect(allWon.score).toBe(45);
    const mixed = toxicityOf([trade(true, 'UP', null, 0), trade(false, 'UP', null, 0)]);
    expect(mixed).toMatchObject({ profitFactor: 0, profit: 0, zScore: 0, score: 0 });
  });

  it('gives a move-chaser who wins only by chance neither latency nor skill: chasing that does not pay is not toxic', () => {
    const trades = Array.from({ length: 100 }, (_, i) => trade(i % 2 === 0, 'UP', 20));
    const t = toxicityOf(trades);
    expect(t).toMatchObject({ afterMovePct: 100, latency: 0, skill: 0, profit: 0, score: 0 });
  });

  it('gives a move-chaser the latency component as far as those trades beat chance, full at 70 % won', () => {
    const at = (wonOfTen: number) =>
      toxicityOf(Array.from({ length: 10 }, (_, i) => trade(i < wonOfTen, 'UP', 20))).latency;
    expect(at(6)).toBeCloseTo(0.5);
    expect(at(7)).toBeCloseTo(1);
    expect(at(9)).toBe(1);
  });
});

describe('the parts of the score', () => {
  it('measures the prior move in signed basis points, null without a usable earlier price', () => {
    expect(priorMoveBps(100.2, 100)).toBeCloseTo(20);
    expect(priorMoveBps(99.9, 100)).toBeCloseTo(-10);
    expect(priorMoveBps(100, null)).toBeNull();
    expect(priorMoveBps(100, 0)).toBeNull();
  });

  it('counts a trade as following a large move only in the move’s direction and from 10 bps', () => {
    expect(followsLargeMove({ direction: 'UP', priorMoveBps: 10 })).toBe(true);
    expect(followsLargeMove({ direction: 'DOWN', priorMoveBps: -12 })).toBe(true);
    expect(followsLargeMove({ direction: 'DOWN', priorMoveBps: 12 })).toBe(false);
    expect(followsLargeMove({ direction: 'UP', priorMoveBps: 9.99 })).toBe(false);
    expect(followsLargeMove({ direction: 'UP', priorMoveBps: null })).toBe(false);
  });

  it('centres the z-score on chance at the trade’s payout', () => {
    // One win and one loss at 80 %: P/L −200 against a mean of 2 × −100, exactly chance.
    expect(chanceZScore([trade(true, 'UP', null), trade(false, 'UP', null)])).toBe(0);
  });

  it('keeps every score an integer within 0–100 and every component within 0–1', () => {
    const arbitraryTrade = fc.record({
      stakeCents: fc.integer({ min: 1, max: 500_000 }),
      payoutPct: fc.integer({ min: 0, max: 10_000 }).map((h) => h / 100),
      won: fc.boolean(),
      direction: fc.constantFrom<Direction>('UP', 'DOWN'),
      priorMoveBps: fc.option(fc.double({ min: -500, max: 500, noNaN: true })),
    });
    fc.assert(
      fc.property(fc.array(arbitraryTrade, { maxLength: 60 }), (drawn) => {
        const trades: ScoredTrade[] = drawn.map(({ won, ...t }) => ({
          ...t,
          status: won ? 'won' : 'lost',
          pnlCents: won ? Math.floor((t.stakeCents * t.payoutPct) / 100) : -t.stakeCents,
        }));
        const t = toxicityOf(trades);
        expect(Number.isInteger(t.score) && t.score >= 0 && t.score <= 100).toBe(true);
        for (const c of [t.skill, t.latency, t.profit]) expect(c >= 0 && c <= 1).toBe(true);
        expect(Number.isFinite(t.zScore)).toBe(true);
      }),
    );
  });

  it('never lowers the score when a lost trade is turned into a win', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 0, max: 39 }), (seed, flip) => {
        const trades = randomTrader(seed, 40);
        const turned = trades.map((t, i) => (i === flip && t.status === 'lost' ? { ...t, ...win(t) } : t));
        expect(toxicityOf(turned).score).toBeGreaterThanOrEqual(toxicityOf(trades).score);
      }),
    );
  });
});

function win(t: ScoredTrade): Pick<ScoredTrade, 'status' | 'pnlCents'> {
  return { status: 'won', pnlCents: Math.floor((t.stakeCents * t.payoutPct) / 100) };
}
