import { isForexPair, priceDecimals, roundToDecimals } from '@updown/schemas/market';
import type { Prng } from './prng.domain';

/**
 * The OTC price model: an Ornstein–Uhlenbeck process on the log of the price, pulled towards the
 * pair's reference price. On the log scale the price can never reach zero, and mean reversion
 * keeps it within a band around the reference however long the feed runs, while over a minute
 * or an hour it moves like a free random walk (the pull is measured in hours).
 *
 *   x = ln(price / reference)
 *   dx = −θ·x·dt + σ·dW        stationary standard deviation of x: σ / √(2θ)
 *
 * Steps use the exact transition of the process, so a walk sampled every 250 ms and one sampled
 * every 3 s (the history backfill) have the same statistics.
 */

export interface WalkProfile {
  /** σ: standard deviation of the log price per square root of a second, before reversion. */
  readonly volatilityPerSqrtSec: number;
  /** σ / √(2θ): how far, as a log-price standard deviation, the price wanders from the reference in the long run. */
  readonly spreadStd: number;
}

export interface WalkParams extends WalkProfile {
  readonly referencePrice: number;
}

/** The log price is reflected back inside ±ln(1.4): a guard far in the tail that the statistics alone make rare. */
export const LOG_DEVIATION_MAX = Math.log(1.4);

/** The tick the OTC volatilities are tuned for; other intervals keep the same per-minute movement. */
const NOMINAL_TICK_SEC = 0.25;
/** A forex pair moves about this many pips per nominal tick: an OTC feed exaggerates the real market. */
const FOREX_PIPS_PER_TICK = 0.7;

const METALS = new Set(['XAU', 'XAG', 'XPT', 'XPD']);
const CRYPTO = new Set([
  'BTC',
  'ETH',
  'SOL',
  'XRP',
  'LTC',
  'BNB',
  'ADA',
  'DOGE',
  'DOT',
  'TRX',
  'AVAX',
  'LINK',
]);
const STABLE_QUOTES = ['USDT', 'USDC'];

function isCrypto(symbol: string): boolean {
  if (STABLE_QUOTES.some((quote) => symbol.endsWith(quote) && symbol.length > quote.length)) return true;
  return [...CRYPTO].some((base) => symbol.startsWith(base) && symbol.length > base.length);
}

/**
 * Per-pair volatility: forex moves under a pip per tick and stays within a few percent of its
 * reference; metals a few tens of cents per tick on gold; crypto a few dollars per tick on BTC
 * and wanders furthest. Anything else (a pair an admin adds) behaves like a metal.
 */
export function walkProfile(symbol: string, referencePrice: number): WalkProfile {
  const upper = symbol.toUpperCase();
  if (isForexPair(upper)) {
    const pip = 10 ** -(priceDecimals(upper) - 1);
    return {
      volatilityPerSqrtSec: (FOREX_PIPS_PER_TICK * pip) / referencePrice / Math.sqrt(NOMINAL_TICK_SEC),
      spreadStd: 0.02,
    };
  }
  if (isCrypto(upper)) return { volatilityPerSqrtSec: 1.6e-4, spreadStd: 0.06 };
  if (METALS.has(upper.slice(0, 3))) return { volatilityPerSqrtSec: 1.5e-4, spreadStd: 0.04 };
  return { volatilityPerSqrtSec: 1.5e-4, spreadStd: 0.04 };
}

export function walkParams(symbol: string, referencePrice: number): WalkParams {
  return { referencePrice, ...walkProfile(symbol, referencePrice) };
}

function reflect(x: number): number {
  let y = x;
  // Reflection can overshoot the other bound only for absurd steps; a few rounds settle any real one.
  for (let i = 0; i < 8 && Math.abs(y) > LOG_DEVIATION_MAX; i++) {
    y = y > 0 ? 2 * LOG_DEVIATION_MAX - y : -2 * LOG_DEVIATION_MAX - y;
  }
  return Math.max(-LOG_DEVIATION_MAX, Math.min(LOG_DEVIATION_MAX, y));
}

export class OuWalk {
  private deviation: number;
  private readonly reversionPerSec: number;
  private cachedDtSec = Number.NaN;
  private decay = 1;
  private stepStd = 0;

  constructor(
    private readonly params: WalkParams,
    startPrice: number,
    private readonly rng: Prng,
  ) {
    if (!(params.referencePrice > 0)) throw new RangeError('referencePrice must be positive');
    if (!(params.volatilityPerSqrtSec > 0) || !(params.spreadStd > 0)) {
      throw new RangeError('volatility and spread must be positive');
    }
    this.reversionPerSec = params.volatilityPerSqrtSec ** 2 / (2 * params.spreadStd ** 2);
    const start = startPrice > 0 ? startPrice : params.referencePrice;
    this.deviation = reflect(Math.log(start / params.referencePrice));
  }

  get price(): number {
    return this.params.referencePrice * Math.exp(this.deviation);
  }

  /** Advances the walk by `dtSec` seconds and returns the new (unrounded) price. */
  step(dtSec: number): number {
    if (dtSec !== this.cachedDtSec) {
      const theta = this.reversionPerSec;
      this.decay = Math.exp(-theta * dtSec);
      // Exact OU step variance σ²(1 − e^(−2θΔ)) / 2θ; expm1 keeps precision when θΔ is tiny.
      this.stepStd =
        this.params.volatilityPerSqrtSec * Math.sqrt(-Math.expm1(-2 * theta * dtSec) / (2 * theta));
      this.cachedDtSec = dtSec;
    }
    this.deviation = reflect(this.deviation * this.decay + this.stepStd * this.rng.nextNormal());
    return this.price;
  }
}

/**
 * A price as the pair quotes it: rounded to its decimals (see `priceDecimals`), and never below the
 * smallest quotable step, so a very cheap pair an admin adds cannot round to a price of zero.
 */
export function quotePrice(symbol: string, price: number): number {
  return priceQuoter(symbol)(price);
}

/** `quotePrice` for one symbol, with its decimals worked out once: for loops over many prices. */
export function priceQuoter(symbol: string): (price: number) => number {
  const decimals = priceDecimals(symbol);
  const smallest = 10 ** -decimals;
  return (price) => Math.max(roundToDecimals(price, decimals), smallest);
}
