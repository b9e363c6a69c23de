import { binanceDialect } from './binance';
import { coinbaseDialect } from './coinbase';
import { splitSymbol, type Dialect, type FakeExchangeId } from './dialect';
import type { FakeExchange } from './fake-exchange';
import { FakeExchangeServer } from './fake-server';
import { krakenDialect } from './kraken';

export type { FakeExchangeId } from './dialect';
export type { FakeExchange } from './fake-exchange';

/** Prices in one recording; a longer market replay belongs in several files. */
const RECORDED_PRICES_MAX = 10_000;
const RECORDED_INTERVAL_MS = 1_000;

const DIALECTS: Record<FakeExchangeId, Dialect> = {
  binance: binanceDialect,
  coinbase: coinbaseDialect,
  kraken: krakenDialect,
};

/**
 * Starts a local stand-in for an exchange's public REST and WebSocket APIs on 127.0.0.1 (a free
 * port), listing only `symbols` (`BTC/USDT`, ...), for pointing `CcxtProvider` at with `endpoints`.
 */
export function startFakeExchange(
  exchange: FakeExchangeId,
  options: { symbols: readonly string[] },
): Promise<FakeExchange> {
  return FakeExchangeServer.start(exchange, DIALECTS[exchange], options.symbols);
}

/**
 * The exchange's own wire messages (JSON lines) for a sequence of ticker prices, one second
 * apart from `startMs`, for tests to write to a file and `play`.
 */
export function recordTickerMessages(
  exchange: FakeExchangeId,
  sourceSymbol: string,
  prices: readonly number[],
  startMs: number,
): string[] {
  if (prices.length > RECORDED_PRICES_MAX) throw new RangeError(`at most ${RECORDED_PRICES_MAX} prices`);
  splitSymbol(sourceSymbol);
  const dialect = DIALECTS[exchange];
  return prices.map((price, index) =>
    dialect.record(sourceSymbol, { price, atMs: startMs + index * RECORDED_INTERVAL_MS }, index),
  );
}
