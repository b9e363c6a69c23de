import type { Clock } from '@updown/runtime';
import { deriveSeed, Prng } from './prng.domain';
import type { FeedPair, PriceProvider, Tick, TickSink } from './price-provider';
import { OuWalk, priceQuoter, walkParams } from './random-walk.domain';

export const OTC_PROVIDER = 'OTC';

export interface OtcProviderOptions {
  readonly clock: Clock;
  readonly seed: number;
  readonly tickIntervalMs: number;
}

interface Feed {
  readonly symbol: string;
  readonly walk: OuWalk;
  readonly quote: (price: number) => number;
}

/**
 * The built-in over-the-counter feed: every `tickIntervalMs` each pair's random walk takes one
 * step and the round of ticks goes to the sink, all stamped with the same clock reading.
 *
 * A pair's stream is seeded from the configured seed, the symbol and the instant its feed started,
 * so it is reproducible (same seed and start, same prices) but a restart does not replay the
 * moves of the previous run, which a trader could otherwise learn and bet on.
 */
export class OtcProvider implements PriceProvider {
  readonly name = OTC_PROVIDER;
  private readonly feeds = new Map<string, Feed>();
  private sink: TickSink | undefined;
  private cancelTimer: (() => void) | undefined;
  private nextDueMs = 0;

  constructor(private readonly options: OtcProviderOptions) {
    if (!Number.isInteger(options.tickIntervalMs) || options.tickIntervalMs < 1) {
      throw new RangeError(`tickIntervalMs must be a positive integer, got ${options.tickIntervalMs}`);
    }
  }

  start(sink: TickSink): void {
    if (this.sink) throw new Error('OTC provider already started');
    this.sink = sink;
    this.nextDueMs = this.options.clock.nowMs();
    this.schedule();
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.sink = undefined;
  }

  addPair(pair: FeedPair): void {
    if (this.feeds.has(pair.symbol)) return;
    const seed = deriveSeed(this.options.seed, pair.symbol, 'live', this.options.clock.nowMs());
    const walk = new OuWalk(walkParams(pair.symbol, pair.referencePrice), pair.startPrice, new Prng(seed));
    this.feeds.set(pair.symbol, { symbol: pair.symbol, walk, quote: priceQuoter(pair.symbol) });
  }

  removePair(symbol: string): void {
    this.feeds.delete(symbol);
  }

  pairs(): readonly string[] {
    return [...this.feeds.keys()];
  }

  /** Keeps a steady cadence; after a stall (a blocked event loop) it resumes instead of bursting to catch up. */
  private schedule(): void {
    const now = this.options.clock.nowMs();
    this.nextDueMs += this.options.tickIntervalMs;
    if (this.nextDueMs <= now) this.nextDueMs = now + this.options.tickIntervalMs;
    this.cancelTimer = this.options.clock.setTimeout(() => this.round(), this.nextDueMs - now);
  }

  private round(): void {
    const sink = this.sink;
    if (!sink) return;
    if (this.feeds.size > 0 && sink.accepting()) {
      const atMs = this.options.clock.nowMs();
      const dtSec = this.options.tickIntervalMs / 1000;
      const ticks: Tick[] = [];
      for (const feed of this.feeds.values()) {
        ticks.push({ pair: feed.symbol, price: feed.quote(feed.walk.step(dtSec)), atMs });
      }
      sink.push(ticks);
    }
    if (this.sink) this.schedule();
  }
}
