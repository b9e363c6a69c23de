import type { SourceCandle } from './price-provider';

/**
 * Reading ccxt's results: a ticker's price, OHLCV rows as candles, and the reconnect delay. Pure,
 * so what counts as a usable price or a malformed candle is tested without an exchange.
 */

const MINUTE_MS = 60_000;
/** Doubling stops here: 2^30 times any sane minimum is already far past any maximum. */
const BACKOFF_DOUBLINGS_MAX = 30;
/** How far above the exponential step the jitter may push a delay, as a fraction of it. */
const BACKOFF_JITTER = 0.5;

/** The fields of a ccxt ticker the feed reads; ccxt leaves a field it could not parse undefined. */
export interface TickerFields {
  readonly last?: unknown;
  readonly close?: unknown;
  readonly bid?: unknown;
  readonly ask?: unknown;
  readonly timestamp?: unknown;
}

/**
 * The price a ticker quotes: the last trade, else the close (the same thing on most exchanges,
 * filled on some where `last` is not), else the middle of the best bid and ask. Undefined when
 * none of them is a finite positive number, which makes the ticker unusable.
 */
export function tickerPrice(ticker: TickerFields | null | undefined): number | undefined {
  if (ticker === null || typeof ticker !== 'object') return undefined;
  const last = positive(ticker.last) ?? positive(ticker.close);
  if (last !== undefined) return last;
  const bid = positive(ticker.bid);
  const ask = positive(ticker.ask);
  if (bid === undefined || ask === undefined || ask < bid) return undefined;
  const mid = (bid + ask) / 2;
  return Number.isFinite(mid) ? mid : undefined;
}

/** The exchange's timestamp of a ticker, when it sent one. */
export function tickerTimestamp(ticker: TickerFields): number | undefined {
  return typeof ticker.timestamp === 'number' && Number.isFinite(ticker.timestamp)
    ? ticker.timestamp
    : undefined;
}

export interface ParsedCandles {
  readonly candles: SourceCandle[];
  /** Rows left out: not a row, a time off the minute grid, or prices that are not a candle. */
  readonly dropped: number;
}

/**
 * ccxt OHLCV rows (`[ms, open, high, low, close, volume]`) as one-minute candles, oldest first,
 * at most `limit`. A row that is not a consistent candle is dropped rather than stored: one bad
 * row from an exchange must not put a spike on every chart. A minute listed twice keeps its last row.
 */
export function sourceCandles(rows: unknown, limit: number): ParsedCandles {
  if (!Array.isArray(rows)) return { candles: [], dropped: 0 };
  const byBucket = new Map<number, SourceCandle>();
  let dropped = 0;
  for (const row of rows) {
    const candle = candleOf(row);
    if (candle === undefined) dropped += 1;
    else byBucket.set(candle.bucketStartSec, candle);
  }
  const candles = [...byBucket.values()].sort((a, b) => a.bucketStartSec - b.bucketStartSec);
  return { candles: candles.slice(0, Math.max(0, Math.floor(limit))), dropped };
}

function candleOf(row: unknown): SourceCandle | undefined {
  if (!Array.isArray(row) || row.length < 5) return undefined;
  const [atMs, ...rest] = row as unknown[];
  if (typeof atMs !== 'number' || !Number.isSafeInteger(atMs) || atMs < 0 || atMs % MINUTE_MS !== 0) {
    return undefined;
  }
  const open = positive(rest[0]);
  const high = positive(rest[1]);
  const low = positive(rest[2]);
  const close = positive(rest[3]);
  if (open === undefined || high === undefined || low === undefined || close === undefined) return undefined;
  if (high < Math.max(open, close, low) || low > Math.min(open, close)) return undefined;
  return { bucketStartSec: atMs / 1000, open, high, low, close };
}

/**
 * The wait before reconnect attempt `attempt` (0 for the first): doubling from `minMs`, up to
 * half as much again at random so pairs that dropped together do not reconnect together, and
 * never more than `maxMs`. `random` is in [0, 1).
 */
export function backoffDelayMs(attempt: number, minMs: number, maxMs: number, random: number): number {
  const doublings = Math.min(Math.max(0, Math.floor(attempt)), BACKOFF_DOUBLINGS_MAX);
  const step = Math.min(maxMs, minMs * 2 ** doublings);
  const jitter = step * BACKOFF_JITTER * Math.min(Math.max(random, 0), 1);
  return Math.round(Math.min(maxMs, step + jitter));
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
