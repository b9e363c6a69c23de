import type { Exchange, Ticker } from 'ccxt';
import type { Clock, Logger } from '@updown/runtime';
import { backoffDelayMs, tickerPrice, tickerTimestamp } from './ccxt-ticker.domain';
import type { FeedObserver, TickSink } from './price-provider';

/**
 * Back-to-back messages that yield no tick (unreadable, or the same ticker again) after which the
 * stream counts as broken rather than noisy, and is reopened.
 */
const UNPRODUCTIVE_STREAK_MAX = 20;

/** What the provider gives each pair's stream. */
export interface StreamContext {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly observer: FeedObserver;
  readonly backoffMsMin: number;
  readonly backoffMsMax: number;
  readonly stallAfterMs: number;
  /** The exchange with its markets loaded; rejects while it cannot be had. */
  ready(): Promise<Exchange>;
  /** Whether a failed watch means the stream dropped or only that one message was unreadable. */
  classify(error: unknown): 'dropped' | 'malformed';
  /** Closes whatever connection carries `sourceSymbol`, so the next watch opens a fresh one. */
  closeConnection(sourceSymbol: string): void;
  /** Where ticks go; undefined while the provider is stopped. */
  sink(): TickSink | undefined;
  /** The exchange's extra `watchTicker` parameters. */
  watchParams(): Record<string, string>;
}

type Outcome =
  | { readonly kind: 'ticker'; readonly ticker: Ticker }
  | { readonly kind: 'malformed'; readonly error: unknown }
  | { readonly kind: 'dropped'; readonly error: unknown; readonly close: boolean }
  | { readonly kind: 'ended' };

/**
 * One pair's ticker stream: watch, turn each new ticker into a tick, and on a drop, a failure or
 * a silence longer than `stallAfterMs` report it, wait a backoff and subscribe again. It never
 * throws: every way a watch can end is an outcome the loop handles.
 */
export class PairStream {
  private live = true;
  /** Ends the wait in progress (for a message or a backoff) at once. */
  private interrupt: (() => void) | undefined;
  private down = false;
  private lastTicker: unknown;
  private lastTimestamp: number | undefined;
  private lastPrice: number | undefined;

  constructor(
    readonly symbol: string,
    readonly sourceSymbol: string,
    private readonly context: StreamContext,
  ) {}

  start(): void {
    this.run().catch((error: unknown) => {
      this.context.logger.error({ err: error, pair: this.symbol }, 'exchange stream ended unexpectedly');
    });
  }

  /** Stops the loop; a message or a timer that arrives later is ignored. */
  end(): void {
    this.live = false;
    this.interrupt?.();
  }

  private async run(): Promise<void> {
    const { context } = this;
    let failures = 0;
    let unproductive = 0;
    while (this.live) {
      let outcome = await this.next();
      if (!this.live || outcome.kind === 'ended') return;
      if (outcome.kind === 'ticker' && this.deliver(outcome.ticker)) {
        failures = 0;
        unproductive = 0;
        continue;
      }
      if (outcome.kind === 'malformed') context.observer.malformed(this.symbol, outcome.error);
      if (outcome.kind !== 'dropped') {
        unproductive += 1;
        if (unproductive < UNPRODUCTIVE_STREAK_MAX) continue;
        outcome = { kind: 'dropped', error: new Error('no usable ticker in a row of messages'), close: true };
      }
      unproductive = 0;
      this.dropped(outcome.error, outcome.close);
      const delay = backoffDelayMs(failures, context.backoffMsMin, context.backoffMsMax, Math.random());
      failures += 1;
      await this.pause(delay);
    }
  }

  /** The next ticker, or why there is none; a silence longer than `stallAfterMs` is a drop. */
  private async next(): Promise<Outcome> {
    let exchange: Exchange;
    try {
      exchange = await this.context.ready();
    } catch (error) {
      return { kind: 'dropped', error, close: false };
    }
    if (!this.live) return { kind: 'ended' };
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      const settle = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        cancelStall();
        this.interrupt = undefined;
        resolve(outcome);
      };
      const stalled = new Error('stalled');
      const cancelStall = this.context.clock.setTimeout(
        () => settle({ kind: 'dropped', error: stalled, close: true }),
        this.context.stallAfterMs,
      );
      this.interrupt = () => settle({ kind: 'ended' });
      exchange.watchTicker(this.sourceSymbol, this.context.watchParams()).then(
        (ticker) => settle({ kind: 'ticker', ticker }),
        (error: unknown) =>
          settle(
            this.context.classify(error) === 'malformed'
              ? { kind: 'malformed', error }
              : { kind: 'dropped', error, close: false },
          ),
      );
    });
  }

  /**
   * Hands a ticker's price to the sink; false when the ticker gave no tick (no usable price, or
   * ccxt handed back a ticker already seen).
   */
  private deliver(ticker: Ticker): boolean {
    const { context } = this;
    const price = tickerPrice(ticker);
    if (price === undefined) {
      context.observer.malformed(
        this.symbol,
        new Error(`ticker for ${this.sourceSymbol} has no usable price`),
      );
      return false;
    }
    if (this.down) {
      this.down = false;
      context.observer.reconnected(this.symbol);
      context.logger.info({ pair: this.symbol }, 'exchange stream reconnected');
    }
    const timestamp = tickerTimestamp(ticker);
    const repeated =
      ticker === this.lastTicker ||
      (timestamp !== undefined && timestamp === this.lastTimestamp && price === this.lastPrice);
    if (repeated) return false;
    this.lastTicker = ticker;
    this.lastTimestamp = timestamp;
    this.lastPrice = price;
    const sink = context.sink();
    if (sink?.accepting()) sink.push([{ pair: this.symbol, price, atMs: context.clock.nowMs() }]);
    return true;
  }

  private dropped(error: unknown, close: boolean): void {
    this.down = true;
    this.context.observer.disconnected(this.symbol, error);
    this.context.logger.warn({ err: error, pair: this.symbol }, 'exchange stream dropped; reconnecting');
    // A silent socket may be half-open: closing it makes the next watch dial and subscribe again
    // instead of waiting on the same dead connection.
    if (close) this.context.closeConnection(this.sourceSymbol);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        cancel();
        this.interrupt = undefined;
        resolve();
      };
      const cancel = this.context.clock.setTimeout(finish, ms);
      this.interrupt = finish;
    });
  }
}
