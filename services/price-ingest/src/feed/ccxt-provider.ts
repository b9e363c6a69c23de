import type { Exchange } from 'ccxt';
import type { Clock, Logger } from '@updown/runtime';
import type { ExchangeEndpoints, ExchangeId } from './ccxt-endpoints.domain';
import {
  classifyFailure,
  closeSocketsOf,
  createExchange,
  tickerParams,
  unwatchesPerPair,
} from './ccxt-exchange';
import { loadCcxt, type Ccxt } from './ccxt-loader';
import { PairStream, type StreamContext } from './ccxt-stream';
import { sourceCandles } from './ccxt-ticker.domain';
import type { FeedObserver, FeedPair, PriceProvider, SourceCandle, TickSink } from './price-provider';

export { ccxtApiUrls, CCXT_EXCHANGES } from './ccxt-endpoints.domain';
export type { CcxtApiUrls, ExchangeEndpoints, ExchangeId } from './ccxt-endpoints.domain';
export { ccxtLoaded } from './ccxt-loader';

export interface CcxtProviderOptions {
  /** The `market_pairs.provider` value served: `BINANCE`, `COINBASE` or `KRAKEN`. */
  readonly name: string;
  readonly exchange: ExchangeId;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly observer: FeedObserver;
  /** Where the exchange's APIs are, for a local stand-in; absent, the real exchange. */
  readonly endpoints?: ExchangeEndpoints;
  /** The first reconnect wait; later ones double, with jitter. Default 500. */
  readonly backoffMsMin?: number;
  /** The longest reconnect wait. Default 30 000. */
  readonly backoffMsMax?: number;
  /** A pair's stream silent this long counts as dropped and is reopened. Default 15 000. */
  readonly stallAfterMs?: number;
}

const BACKOFF_MS_MIN_DEFAULT = 500;
const BACKOFF_MS_MAX_DEFAULT = 30_000;
const STALL_AFTER_MS_DEFAULT = 15_000;
/** Candles asked for in one call; ccxt lowers it further to each exchange's own cap. */
const HISTORY_LIMIT_MAX = 1_000;

/**
 * Streams an exchange's public tickers through ccxt: one watch loop per pair on one exchange
 * client, ticks stamped with the service's clock. ccxt is loaded on the first pair or history
 * request, so a deployment without exchange pairs never loads it. No API keys are ever set.
 */
export class CcxtProvider implements PriceProvider {
  readonly name: string;
  private readonly streams = new Map<string, PairStream>();
  private readonly context: StreamContext;
  private currentSink: TickSink | undefined;
  private ccxt: Ccxt | undefined;
  private exchange: Exchange | undefined;
  private preparing: Promise<Exchange> | undefined;
  private marketsFailed = false;

  constructor(private readonly options: CcxtProviderOptions) {
    this.name = options.name;
    const backoffMsMin = options.backoffMsMin ?? BACKOFF_MS_MIN_DEFAULT;
    const backoffMsMax = options.backoffMsMax ?? BACKOFF_MS_MAX_DEFAULT;
    const stallAfterMs = options.stallAfterMs ?? STALL_AFTER_MS_DEFAULT;
    if (!(backoffMsMin >= 1 && backoffMsMax >= backoffMsMin && Number.isFinite(backoffMsMax))) {
      throw new RangeError(`backoff must satisfy 1 <= min <= max, got ${backoffMsMin}..${backoffMsMax}`);
    }
    if (!(stallAfterMs >= 1 && Number.isFinite(stallAfterMs))) {
      throw new RangeError(`stallAfterMs must be a positive number, got ${stallAfterMs}`);
    }
    this.context = {
      clock: options.clock,
      logger: options.logger,
      observer: options.observer,
      backoffMsMin,
      backoffMsMax,
      stallAfterMs,
      ready: () => this.ready(),
      classify: (error) => (this.ccxt ? classifyFailure(this.ccxt, error) : 'dropped'),
      closeConnection: (sourceSymbol) => {
        if (this.ccxt && this.exchange)
          closeSocketsOf(this.ccxt, this.exchange, sourceSymbol, options.logger);
      },
      sink: () => this.currentSink,
      watchParams: () => tickerParams(options.exchange),
    };
  }

  start(sink: TickSink): void {
    if (this.currentSink) throw new Error(`${this.name} provider already started`);
    this.currentSink = sink;
  }

  stop(): void {
    this.currentSink = undefined;
    for (const stream of this.streams.values()) stream.end();
    this.streams.clear();
    this.exchange?.close().catch((error: unknown) => {
      this.options.logger.warn({ err: error, provider: this.name }, 'closing the exchange client failed');
    });
  }

  addPair(pair: FeedPair): void {
    const sourceSymbol = pair.sourceSymbol?.trim();
    if (!sourceSymbol) {
      this.options.logger.error(
        { pair: pair.symbol, provider: this.name },
        'exchange pair has no source symbol',
      );
      return;
    }
    const running = this.streams.get(pair.symbol);
    // Exchange prices need no anchor: a pair already streaming its symbol stays as it is.
    if (running?.sourceSymbol === sourceSymbol) return;
    if (running) this.removePair(pair.symbol);
    const stream = new PairStream(pair.symbol, sourceSymbol, this.context);
    this.streams.set(pair.symbol, stream);
    stream.start();
  }

  removePair(symbol: string): void {
    const stream = this.streams.get(symbol);
    if (!stream) return;
    this.streams.delete(symbol);
    stream.end();
    const stillWatched = [...this.streams.values()].some(
      (other) => other.sourceSymbol === stream.sourceSymbol,
    );
    const exchange = this.exchange;
    if (stillWatched || !unwatchesPerPair(this.options.exchange) || !exchange?.has['unWatchTicker']) return;
    exchange
      .unWatchTicker(stream.sourceSymbol, tickerParams(this.options.exchange))
      .catch((error: unknown) => {
        this.options.logger.debug({ err: error, pair: symbol }, 'unsubscribing a removed pair failed');
      });
  }

  pairs(): readonly string[] {
    return [...this.streams.keys()];
  }

  async history(pair: FeedPair, sinceMs: number, limit: number): Promise<SourceCandle[]> {
    if (!pair.sourceSymbol) throw new Error(`${pair.symbol} has no source symbol on ${this.name}`);
    const wanted = Math.min(Math.floor(limit), HISTORY_LIMIT_MAX);
    if (!(wanted >= 1) || !Number.isFinite(sinceMs)) return [];
    const exchange = await this.ready();
    const rows = await exchange.fetchOHLCV(pair.sourceSymbol, '1m', Math.floor(sinceMs), wanted);
    const { candles, dropped } = sourceCandles(rows, wanted);
    if (dropped > 0) {
      this.options.logger.warn({ pair: pair.symbol, dropped }, 'exchange history had malformed candles');
    }
    return candles;
  }

  /**
   * The exchange client with its markets loaded, made once. ccxt keeps a failed market load
   * and hands it back to every later call, so after a failure the next call forces a reload;
   * the callers' own backoff paces those retries.
   */
  private ready(): Promise<Exchange> {
    this.preparing ??= this.prepare().catch((error: unknown) => {
      this.preparing = undefined;
      throw error;
    });
    return this.preparing;
  }

  private async prepare(): Promise<Exchange> {
    const ccxt = await loadCcxt();
    this.ccxt = ccxt;
    const exchange = (this.exchange ??= createExchange(ccxt, this.options.exchange, this.options.endpoints));
    // ccxt dials a plain `ws://` socket (a local stand-in) only through an HTTP agent it makes here.
    if (this.options.endpoints?.ws.startsWith('ws://')) await exchange.loadHttpProxyAgent();
    try {
      await exchange.loadMarkets(this.marketsFailed);
    } catch (error) {
      this.marketsFailed = true;
      throw error;
    }
    this.marketsFailed = false;
    return exchange;
  }
}
