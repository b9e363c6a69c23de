import { WebSocket } from 'ws';
import type { Clock } from '@updown/runtime';
import type { MarketWsMetrics } from './market.metrics';

export interface TickFanoutOptions {
  /** Most open price sockets in this process. */
  readonly clientsMax: number;
  /** A socket with more than this many bytes queued is skipped until it drains. */
  readonly bufferedBytesMax: number;
  /** A socket that stays over the bound this long is disconnected. */
  readonly slowClientTimeoutMs: number;
}

export interface FanoutClient {
  readonly socket: WebSocket;
  readonly pair: string;
  /** When the socket was first seen over the bound in its current slow spell. */
  overSinceMs: number | undefined;
  /** Cleared on each ping, set by the pong: a socket that stays false across two pings is dead. */
  alive: boolean;
}

interface TickLike {
  readonly pair: string;
  readonly price: number;
  /** Unix epoch milliseconds; the WebSocket message names it `ts`. */
  readonly atMs: number;
}

/**
 * Sends each tick to the sockets watching its pair. The message is serialised once per tick and
 * the same bytes go to every socket. Memory stays bounded per client: a socket whose queue is over
 * `bufferedBytesMax` (a client that stopped reading) is skipped, so its queue grows by at most one
 * message past the bound, and it is disconnected if it does not drain within `slowClientTimeoutMs`.
 * A skipped tick is simply lost for that client; the next one carries the current price.
 */
export class TickFanout {
  private readonly byPair = new Map<string, Set<FanoutClient>>();
  private count = 0;

  constructor(
    private readonly options: TickFanoutOptions,
    private readonly clock: Clock,
    private readonly metrics: MarketWsMetrics,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Registers a socket for a pair; undefined when the process is at its connection limit. */
  add(pair: string, socket: WebSocket): FanoutClient | undefined {
    if (this.count >= this.options.clientsMax) return undefined;
    const client: FanoutClient = { socket, pair, overSinceMs: undefined, alive: true };
    let clients = this.byPair.get(pair);
    if (!clients) {
      clients = new Set();
      this.byPair.set(pair, clients);
    }
    clients.add(client);
    this.count++;
    this.metrics.clients.inc({ pair });
    return client;
  }

  remove(client: FanoutClient): void {
    const clients = this.byPair.get(client.pair);
    if (!clients?.delete(client)) return;
    if (clients.size === 0) this.byPair.delete(client.pair);
    this.count--;
    this.metrics.clients.dec({ pair: client.pair });
  }

  broadcast(tick: TickLike): void {
    const clients = this.byPair.get(tick.pair);
    if (!clients) return;
    const data = Buffer.from(JSON.stringify({ pair: tick.pair, price: tick.price, ts: tick.atMs }));
    const now = this.clock.nowMs();
    let sent = 0;
    for (const client of clients) {
      const { socket } = client;
      if (socket.readyState !== WebSocket.OPEN) continue;
      if (socket.bufferedAmount > this.options.bufferedBytesMax) {
        client.overSinceMs ??= now;
        this.metrics.dropped.inc({ pair: tick.pair });
        if (now - client.overSinceMs >= this.options.slowClientTimeoutMs) this.terminate(client);
        continue;
      }
      client.overSinceMs = undefined;
      socket.send(data, { binary: false });
      sent++;
    }
    if (sent > 0) this.metrics.sent.inc({ pair: tick.pair }, sent);
  }

  /** Pings every socket; one that did not answer the previous ping is disconnected (half-open TCP). */
  heartbeat(): void {
    for (const clients of this.byPair.values()) {
      for (const client of clients) {
        if (client.socket.readyState !== WebSocket.OPEN) continue;
        if (!client.alive) {
          this.terminate(client);
          continue;
        }
        client.alive = false;
        client.socket.ping();
      }
    }
  }

  /** Bytes queued in this process for all price sockets. */
  bufferedBytes(): number {
    let total = 0;
    for (const clients of this.byPair.values())
      for (const client of clients) total += client.socket.bufferedAmount;
    return total;
  }

  private terminate(client: FanoutClient): void {
    this.metrics.terminated.inc();
    client.socket.terminate();
    // The close event removes it too; removing now keeps the counts right until then.
    this.remove(client);
  }
}
