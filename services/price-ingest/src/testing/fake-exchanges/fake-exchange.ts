import type { ExchangeEndpoints } from '../../feed/ccxt-endpoints.domain';
import type { SourceCandle } from '../../feed/price-provider';
import type { FakeExchangeId } from './dialect';

/**
 * A local stand-in for one exchange's public REST and WebSocket APIs, with the controls a test
 * needs to put a client through what real exchanges do: updates, drops, silences, bad messages.
 */
export interface FakeExchange {
  readonly exchange: FakeExchangeId;
  /** Pass to `CcxtProvider`. */
  readonly endpoints: ExchangeEndpoints;
  /** Sends one ticker update with this price on every open subscription of `sourceSymbol` (e.g. 'BTC/USDT'). */
  tick(sourceSymbol: string, price: number): void;
  /**
   * Plays a recorded-format message file (JSON lines, the exchange's own wire messages, as
   * produced by `recordTickerMessages`) to subscribers, one line per `intervalMs`. Resolves when done.
   */
  play(file: string, intervalMs: number): Promise<void>;
  /** Closes every client socket abruptly (a dropped connection); new connections are accepted. */
  dropConnections(): void;
  /** While stalled the fake accepts connections and answers pings but sends no ticker messages. */
  stall(on: boolean): void;
  /** Sends one message ccxt cannot use (a ticker whose prices are not numbers) to subscribers. */
  sendMalformed(sourceSymbol: string): void;
  /** The 1m candles the REST OHLCV endpoint serves (oldest first). */
  setCandles(sourceSymbol: string, candles: readonly SourceCandle[]): void;
  /** Open WebSocket connections now. */
  connections(): number;
  /** Ticker subscriptions received so far, one per symbol, re-subscriptions included. */
  subscriptions(): number;
  close(): Promise<void>;
}
