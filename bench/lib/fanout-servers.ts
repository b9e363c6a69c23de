import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { WebSocket, WebSocketServer } from 'ws';
import { createLogger, MemoryBus, Registry, systemClock, type Database } from '@updown/runtime';
import { createMarketPlugin, startGateway } from '@updown/gateway';
import { createEvent, eventTopics } from '@updown/schemas';

/**
 * The two servers the fan-out benchmark compares, behind one shape: the gateway's market plugin
 * (ticks published on the in-memory bus reach `/api/market/ws?pair=X` sockets through its
 * subscription), and a bare `ws` server that sends the same text bytes straight to the sockets of
 * the tick's pair, serialised once per tick — the least any WebSocket fan-out in Node can do.
 */

/** A tick as the WebSocket sends it (`ts`: Unix epoch milliseconds, the message's name for it). */
export interface Tick {
  readonly pair: string;
  readonly price: number;
  readonly ts: number;
}

export interface FanoutServer {
  /** `ws://…` without the query; clients add `?pair=X`. */
  readonly url: string;
  publish(tick: Tick): Promise<void>;
  /** Sockets the server counts as subscribed. */
  clients(): Promise<number>;
  /** Ticks the server skipped for sockets over their send-buffer bound (0 for the bare server). */
  dropped(): Promise<number>;
  close(): Promise<void>;
}

/** Frames a client may send (it sends none); the gateway uses the same bound. */
const MAX_PAYLOAD_BYTES = 64 * 1024;

async function metricTotal(registry: Registry, name: string): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values.reduce((sum, v) => sum + v.value, 0);
}

/** The gateway with the market plugin only, on a random port; `clientsMax` raises its socket limit. */
export async function startGatewayFanout(db: Kysely<Database>, clientsMax: number): Promise<FanoutServer> {
  const logger = createLogger({ level: 'silent', name: 'bench-fan-out' });
  const registry = new Registry();
  const bus = new MemoryBus({ topics: eventTopics, logger, registry });
  const gateway = await startGateway({
    config: {
      HOST: '127.0.0.1',
      PORT: 0,
      CONSOLE_DIR: '/nonexistent',
      CORS_ORIGINS: [],
      BODY_LIMIT_BYTES: 1024 * 1024,
    },
    logger,
    registry,
    db,
    readiness: async () => ({ ok: true, checks: {} }),
    plugins: [
      createMarketPlugin({
        db,
        bus,
        logger,
        registry,
        clock: systemClock,
        options: { wsClientsMax: clientsMax, wsClientsPerAddressMax: clientsMax },
      }),
    ],
  }).catch(async (error: unknown) => {
    await bus.close();
    throw error;
  });
  return {
    url: `ws://127.0.0.1:${gateway.port}/api/market/ws`,
    publish: (tick) =>
      bus.publish(
        'market.ticks.v1',
        tick.pair,
        createEvent(
          'market.ticks.v1',
          { pair: tick.pair, price: tick.price, atMs: tick.ts },
          { producer: 'bench' },
        ),
      ),
    clients: () => metricTotal(registry, 'updown_ws_clients'),
    dropped: () => metricTotal(registry, 'updown_ws_messages_dropped_total'),
    async close() {
      await gateway.close();
      await bus.close();
    },
  };
}

export async function startBareFanout(): Promise<FanoutServer> {
  const server = http.createServer((_, response) => response.writeHead(404).end());
  const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: MAX_PAYLOAD_BYTES });
  const byPair = new Map<string, Set<WebSocket>>();
  wss.on('connection', (socket, request) => {
    const pair = new URL(request.url ?? '/', 'http://localhost').searchParams.get('pair') ?? '';
    let sockets = byPair.get(pair);
    if (!sockets) byPair.set(pair, (sockets = new Set()));
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/`,
    async publish(tick) {
      const sockets = byPair.get(tick.pair);
      if (!sockets) return;
      const data = Buffer.from(JSON.stringify({ pair: tick.pair, price: tick.price, ts: tick.ts }));
      for (const socket of sockets) {
        if (socket.readyState === WebSocket.OPEN) socket.send(data, { binary: false });
      }
    },
    clients: async () => wss.clients.size,
    dropped: async () => 0,
    async close() {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
