import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { ExchangeEndpoints } from '../../feed/ccxt-endpoints.domain';
import type { FakeExchange } from './fake-exchange';
import type { SourceCandle } from '../../feed/price-provider';
import {
  splitSymbol,
  type Dialect,
  type DialectHost,
  type FakeExchangeId,
  type Quote,
  type Session,
} from './dialect';

/** One client message larger than this closes its socket: no real subscription comes close. */
const CLIENT_MESSAGE_BYTES_MAX = 64 * 1024;
const CONNECTIONS_MAX = 64;
const SYMBOLS_MAX = 100;
const PLAY_FILE_BYTES_MAX = 4 * 1024 * 1024;
const PLAY_LINES_MAX = 10_000;
const PLAY_INTERVAL_MS_MAX = 60_000;
const CANDLES_PER_SYMBOL_MAX = 10_000;

interface Connection {
  readonly socket: WebSocket;
  readonly session: Session;
}

/** One fake exchange: an HTTP server on 127.0.0.1 for REST, with the exchange's socket on it. */
export class FakeExchangeServer implements FakeExchange, DialectHost {
  readonly endpoints: ExchangeEndpoints;
  private readonly live = new Set<Connection>();
  private readonly candleStore = new Map<string, readonly SourceCandle[]>();
  private readonly lastQuotes = new Map<string, Quote>();
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: CLIENT_MESSAGE_BYTES_MAX });
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private subscribed = 0;
  private stalled = false;
  private closed = false;

  private constructor(
    readonly exchange: FakeExchangeId,
    private readonly dialect: Dialect,
    readonly symbols: readonly string[],
    private readonly server: Server,
  ) {
    const { port } = server.address() as AddressInfo;
    const wsPath = dialect.wsPath === '/' ? '' : dialect.wsPath;
    this.endpoints = { rest: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}${wsPath}` };
    server.on('request', (request, response) => this.answer(request, response));
    server.on('upgrade', (request, socket, head) => this.upgrade(request, socket as Socket, head));
    const heartbeat = dialect.heartbeat;
    if (heartbeat) {
      this.heartbeatTimer = setInterval(() => this.broadcast(() => heartbeat.text()), heartbeat.intervalMs);
      this.heartbeatTimer.unref();
    }
  }

  static async start(
    exchange: FakeExchangeId,
    dialect: Dialect,
    symbols: readonly string[],
  ): Promise<FakeExchangeServer> {
    if (symbols.length === 0 || symbols.length > SYMBOLS_MAX) {
      throw new RangeError(`a fake exchange lists 1 to ${SYMBOLS_MAX} symbols, got ${symbols.length}`);
    }
    for (const symbol of symbols) splitSymbol(symbol);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new FakeExchangeServer(exchange, dialect, [...symbols], server);
  }

  tick(sourceSymbol: string, price: number): void {
    this.requireSymbol(sourceSymbol);
    if (!Number.isFinite(price) || price <= 0) throw new RangeError(`a tick price is positive, got ${price}`);
    // Each update gets its own exchange time, as on the wire: two ticks in one millisecond differ.
    const previous = this.lastQuotes.get(sourceSymbol)?.atMs ?? 0;
    const quote = { price, atMs: Math.max(Date.now(), previous + 1) };
    this.lastQuotes.set(sourceSymbol, quote);
    this.sendTo(sourceSymbol, (session) => this.dialect.ticker(session, sourceSymbol, quote, false));
  }

  async play(file: string, intervalMs: number): Promise<void> {
    if (!(intervalMs >= 0 && intervalMs <= PLAY_INTERVAL_MS_MAX)) {
      throw new RangeError(`play interval must be within 0..${PLAY_INTERVAL_MS_MAX} ms, got ${intervalMs}`);
    }
    if ((await stat(file)).size > PLAY_FILE_BYTES_MAX)
      throw new RangeError(`${file} is over ${PLAY_FILE_BYTES_MAX} bytes`);
    const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    if (lines.length > PLAY_LINES_MAX) throw new RangeError(`${file} has over ${PLAY_LINES_MAX} lines`);
    for (const [index, line] of lines.entries()) {
      if (this.closed) return;
      if (index > 0) await sleep(intervalMs);
      const symbol = this.dialect.symbolOf(parseOrUndefined(line), this);
      // A line naming no listed symbol goes to every subscriber, as an unknown message would.
      if (symbol) this.sendTo(symbol, () => line);
      else this.sendToSubscribers(() => line);
    }
  }

  dropConnections(): void {
    for (const { socket } of this.live) socket.terminate();
  }

  stall(on: boolean): void {
    this.stalled = on;
  }

  sendMalformed(sourceSymbol: string): void {
    this.requireSymbol(sourceSymbol);
    this.sendTo(sourceSymbol, (session) => this.dialect.malformed(session, sourceSymbol));
  }

  setCandles(sourceSymbol: string, candles: readonly SourceCandle[]): void {
    this.requireSymbol(sourceSymbol);
    if (candles.length > CANDLES_PER_SYMBOL_MAX)
      throw new RangeError(`at most ${CANDLES_PER_SYMBOL_MAX} candles`);
    this.candleStore.set(
      sourceSymbol,
      [...candles].sort((a, b) => a.bucketStartSec - b.bucketStartSec),
    );
  }

  connections(): number {
    return this.live.size;
  }

  subscriptions(): number {
    return this.subscribed;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeatTimer);
    for (const { socket } of this.live) socket.terminate();
    this.sockets.close();
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await done;
  }

  // DialectHost

  candles(sourceSymbol: string): readonly SourceCandle[] {
    return this.candleStore.get(sourceSymbol) ?? [];
  }

  subscribe(session: Session, sourceSymbol: string, variant: string): void {
    session.topics.set(sourceSymbol, variant);
    this.subscribed += 1;
    const quote = this.lastQuotes.get(sourceSymbol);
    if (this.dialect.snapshotOnSubscribe && quote && !this.stalled) {
      session.send(this.dialect.ticker(session, sourceSymbol, quote, true));
    }
  }

  unsubscribe(session: Session, sourceSymbol: string): void {
    session.topics.delete(sourceSymbol);
  }

  // Plumbing

  private requireSymbol(sourceSymbol: string): void {
    if (!this.symbols.includes(sourceSymbol)) {
      throw new RangeError(`${this.exchange} fake lists ${this.symbols.join(', ')}, not ${sourceSymbol}`);
    }
  }

  /** Market data for one symbol; nothing while stalled. */
  private sendTo(sourceSymbol: string, text: (session: Session) => string): void {
    if (this.stalled) return;
    for (const { session } of this.live) if (session.topics.has(sourceSymbol)) session.send(text(session));
  }

  private sendToSubscribers(text: (session: Session) => string): void {
    if (this.stalled) return;
    for (const { session } of this.live) if (session.topics.size > 0) session.send(text(session));
  }

  private broadcast(text: () => string): void {
    for (const { session } of this.live) session.send(text());
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    let status = 405;
    let body: unknown = { error: 'only GET is served' };
    if (request.method === 'GET') {
      try {
        ({ status, body } = this.dialect.rest(url.pathname, url.searchParams, this));
      } catch (error) {
        status = 500;
        body = { error: error instanceof Error ? error.message : String(error) };
      }
    }
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
    // A request body is never read; dropping it keeps a sender from filling the server's memory.
    request.resume();
  }

  private upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (this.closed || !path.startsWith(this.dialect.wsPath) || this.live.size >= CONNECTIONS_MAX) {
      socket.destroy();
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (ws) => this.connected(ws, path));
  }

  private connected(socket: WebSocket, path: string): void {
    let seq = 0;
    const session: Session = {
      path,
      topics: new Map(),
      send: (text) => {
        if (socket.readyState === socket.OPEN) socket.send(text);
      },
      nextSeq: () => seq++,
    };
    const connection = { socket, session };
    this.live.add(connection);
    socket.on('close', () => this.live.delete(connection));
    socket.on('error', () => socket.terminate());
    socket.on('message', (data: RawData, isBinary: boolean) => {
      const message = isBinary ? undefined : parseOrUndefined(rawText(data));
      if (message === undefined) return;
      this.dialect.message(session, message, this);
    });
    const greeting = this.dialect.greeting?.(session);
    if (greeting) session.send(greeting);
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
