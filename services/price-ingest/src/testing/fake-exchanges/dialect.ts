import type { SourceCandle } from '../../feed/price-provider';

/**
 * What one fake exchange speaks: its REST answers, how it reads a client's socket messages and
 * how it writes ticker updates. The server (fake-server.ts) does the sockets, the state and the
 * test controls; a dialect only knows its exchange's formats.
 */

export type FakeExchangeId = 'binance' | 'coinbase' | 'kraken';

/** One price update: the price and the exchange's time of it. */
export interface Quote {
  readonly price: number;
  readonly atMs: number;
}

/** One client socket. */
export interface Session {
  /** The path the client dialed. */
  readonly path: string;
  /** Source symbols (`BTC/USDT`) this socket has a ticker subscription for, each with the dialect's channel variant. */
  readonly topics: Map<string, string>;
  /** Sends one text frame. */
  send(text: string): void;
  /** The next per-connection sequence number, for exchanges that number their messages. */
  nextSeq(): number;
}

/** What a dialect may ask of the server. */
export interface DialectHost {
  /** The source symbols the fake lists, e.g. `BTC/USDT`. */
  readonly symbols: readonly string[];
  candles(sourceSymbol: string): readonly SourceCandle[];
  /** Records a ticker subscription (counted) and, if the dialect sends snapshots, sends one. */
  subscribe(session: Session, sourceSymbol: string, variant: string): void;
  unsubscribe(session: Session, sourceSymbol: string): void;
}

export interface RestReply {
  readonly status: number;
  readonly body: unknown;
}

export interface Dialect {
  /** Socket paths the exchange serves start with this. */
  readonly wsPath: string;
  /** Whether a new subscription gets the last price at once, as Coinbase and Kraken do. */
  readonly snapshotOnSubscribe: boolean;
  /** A message sent on every open socket at this interval, if the exchange sends one. */
  readonly heartbeat?: { readonly intervalMs: number; readonly text: () => string };
  rest(path: string, query: URLSearchParams, host: DialectHost): RestReply;
  /** Sent when a client connects, if the exchange greets. */
  greeting?(session: Session): string | undefined;
  /** Handles one parsed client message (subscriptions, pings), answering on `session`. */
  message(session: Session, message: unknown, host: DialectHost): void;
  /** One ticker update as the exchange writes it to `session`. */
  ticker(session: Session, sourceSymbol: string, quote: Quote, snapshot: boolean): string;
  /** A ticker update whose prices are not numbers. */
  malformed(session: Session, sourceSymbol: string): string;
  /** One ticker update as recorded from the wire, independent of any connection. */
  record(sourceSymbol: string, quote: Quote, index: number): string;
  /** The source symbol a recorded message is about, if it names one the fake lists. */
  symbolOf(message: unknown, host: DialectHost): string | undefined;
}

const SYMBOL_PATTERN = /^([A-Z0-9]{1,16})\/([A-Z0-9]{1,16})$/;

/** `BTC/USDT` as its base and quote currencies. */
export function splitSymbol(sourceSymbol: string): { base: string; quote: string } {
  const match = SYMBOL_PATTERN.exec(sourceSymbol);
  if (!match?.[1] || !match[2])
    throw new RangeError(`a fake exchange symbol looks like BTC/USDT, got ${sourceSymbol}`);
  return { base: match[1], quote: match[2] };
}

/** The distinct currencies of `symbols`, in first-seen order. */
export function currenciesOf(symbols: readonly string[]): string[] {
  return [...new Set(symbols.flatMap((symbol) => Object.values(splitSymbol(symbol))))];
}

/** Candles starting in [fromSec, toSec), oldest first, at most `limit`. */
export function candlesBetween(
  candles: readonly SourceCandle[],
  fromSec: number,
  toSec: number,
  limit: number,
): SourceCandle[] {
  return candles.filter((c) => c.bucketStartSec >= fromSec && c.bucketStartSec < toSec).slice(0, limit);
}

/** A query parameter as a finite number, or `fallback` when absent or not a number. */
export function numberParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isFinite(value) ? value : fallback;
}

/** A plain object's field, or undefined for anything else. */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/** A list of strings, or an empty list for anything else. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
