import { describe, expect, it } from 'vitest';
import { priceDecimals } from '@updown/schemas/market';
import { deriveSeed, Prng } from './prng.domain';
import { OuWalk, quotePrice, walkParams, walkProfile } from './random-walk.domain';

const SAMPLE_PAIRS = {
  EURUSD: 1.16,
  GBPUSD: 1.315,
  USDJPY: 155,
  BTCUSDT: 95_000,
  XAUUSD: 4_050,
  ETHUSD: 3_100,
} as const;

function sequence(symbol: keyof typeof SAMPLE_PAIRS, seed: number, steps: number): number[] {
  const reference = SAMPLE_PAIRS[symbol];
  const walk = new OuWalk(walkParams(symbol, reference), reference, new Prng(deriveSeed(seed, symbol)));
  return Array.from({ length: steps }, () => quotePrice(symbol, walk.step(0.25)));
}

function decimalsOf(price: number): number {
  const text = String(price);
  return text.includes('.') ? text.split('.')[1]!.length : 0;
}

describe('seeded generator', () => {
  it('gives the same numbers for the same seed and different ones for another seed', () => {
    const draw = (seed: number) => {
      const rng = new Prng(seed);
      return Array.from({ length: 1000 }, () => rng.nextUint32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('draws uniforms in (0, 1) and normals with mean 0 and variance 1', () => {
    const rng = new Prng(7);
    let sum = 0;
    let sumSquares = 0;
    let outside = 0;
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const u = rng.nextUniform();
      if (!(u > 0 && u < 1)) outside++;
      const z = rng.nextNormal();
      sum += z;
      sumSquares += z * z;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sum / n)).toBeLessThan(0.01);
    expect(Math.abs(sumSquares / n - 1)).toBeLessThan(0.02);
  });

  it('derives distinct streams per label', () => {
    expect(deriveSeed(1, 'EURUSD')).toBe(deriveSeed(1, 'EURUSD'));
    expect(deriveSeed(1, 'EURUSD')).not.toBe(deriveSeed(1, 'GBPUSD'));
    expect(deriveSeed(1, 'EURUSD', 'live', 0)).not.toBe(deriveSeed(1, 'EURUSD', 'live', 250));
    expect(deriveSeed(1, 'EURUSD')).not.toBe(deriveSeed(2, 'EURUSD'));
  });
});

describe('OTC random walk', () => {
  it('is deterministic for a seed, and another seed gives another path', () => {
    for (const symbol of Object.keys(SAMPLE_PAIRS) as (keyof typeof SAMPLE_PAIRS)[]) {
      expect(sequence(symbol, 20260101, 500)).toEqual(sequence(symbol, 20260101, 500));
      expect(sequence(symbol, 20260101, 500)).not.toEqual(sequence(symbol, 20260102, 500));
    }
  });

  it('stays positive and within ±50% of the reference over a million steps', () => {
    for (const [symbol, reference] of Object.entries(SAMPLE_PAIRS)) {
      const walk = new OuWalk(walkParams(symbol, reference), reference, new Prng(deriveSeed(99, symbol)));
      let min = Infinity;
      let max = 0;
      for (let i = 0; i < 1_000_000; i++) {
        const price = walk.step(0.25);
        if (price < min) min = price;
        if (price > max) max = price;
      }
      expect(min, symbol).toBeGreaterThan(reference * 0.5);
      expect(max, symbol).toBeLessThan(reference * 1.5);
    }
  });

  it('moves visibly within a minute: forex about a pip per tick, BTC a few dollars', () => {
    const meanAbsMove = (symbol: keyof typeof SAMPLE_PAIRS) => {
      const reference = SAMPLE_PAIRS[symbol];
      const walk = new OuWalk(walkParams(symbol, reference), reference, new Prng(deriveSeed(5, symbol)));
      let previous = walk.price;
      let total = 0;
      const steps = 20_000;
      for (let i = 0; i < steps; i++) {
        const price = walk.step(0.25);
        total += Math.abs(price - previous);
        previous = price;
      }
      return total / steps;
    };
    const eurusdPips = meanAbsMove('EURUSD') / 0.0001;
    expect(eurusdPips).toBeGreaterThan(0.3);
    expect(eurusdPips).toBeLessThan(1.5);
    const usdjpyPips = meanAbsMove('USDJPY') / 0.01;
    expect(usdjpyPips).toBeGreaterThan(0.3);
    expect(usdjpyPips).toBeLessThan(1.5);
    const btcDollars = meanAbsMove('BTCUSDT');
    expect(btcDollars).toBeGreaterThan(1);
    expect(btcDollars).toBeLessThan(20);
  });

  it('has the same statistics whatever the step: a 3 s step spreads like twelve 0.25 s steps', () => {
    const spread = (dtSec: number, steps: number) => {
      let sumSquares = 0;
      const runs = 2_000;
      for (let run = 0; run < runs; run++) {
        const walk = new OuWalk(walkParams('XAUUSD', 4050), 4050, new Prng(deriveSeed(run, dtSec)));
        for (let i = 0; i < steps; i++) walk.step(dtSec);
        sumSquares += Math.log(walk.price / 4050) ** 2;
      }
      return Math.sqrt(sumSquares / runs);
    };
    const fine = spread(0.25, 12);
    const coarse = spread(3, 1);
    expect(Math.abs(fine / coarse - 1)).toBeLessThan(0.1);
  });

  it('rounds every price to the pair decimals and never to zero', () => {
    for (const symbol of Object.keys(SAMPLE_PAIRS) as (keyof typeof SAMPLE_PAIRS)[]) {
      for (const price of sequence(symbol, 3, 200)) {
        expect(decimalsOf(price)).toBeLessThanOrEqual(priceDecimals(symbol));
      }
    }
    expect(quotePrice('SHIBUSD', 0.000012)).toBe(0.01);
    expect(quotePrice('EURUSD', 1.1600049)).toBe(1.16);
    expect(quotePrice('USDJPY', 155.12351)).toBe(155.124);
  });

  it('starts a pair with no reference data from its start price, clamped into the band', () => {
    const walk = new OuWalk(walkParams('NEWPAIR', 100), 1_000, new Prng(1));
    expect(walk.price).toBeLessThan(150);
    expect(walkProfile('EURUSD', 1.16).spreadStd).toBeLessThan(walkProfile('BTCUSDT', 95_000).spreadStd);
  });
});
