import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createMetricsRegistry, ManualClock, type Registry } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { createEvent } from '@updown/schemas';
import { startGateway, type RunningGateway } from '../server';
import { memoryLogger } from '../testing/test-app';
import { createMarketPlugin } from './market.plugin';
import { memoryBus, metricValue, waitFor } from './testing';

const BUFFERED_BYTES_MAX = 16 * 1024;
const SLOW_CLIENT_TIMEOUT_MS = 10_000;

let database: TestDatabase;
let clock: ManualClock;
let registry: Registry;
let bus: ReturnType<typeof memoryBus>;
let gateway: RunningGateway;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  database = await createTestDatabase({ max: 3 });
  clock = new ManualClock(Date.UTC(2026, 0, 5, 12));
  registry = createMetricsRegistry();
  const { logger } = memoryLogger('silent');
  bus = memoryBus(registry, logger, { retainedPerPartitionMax: 1_000_000 });
  gateway = await startGateway({
    config: {
      HOST: '127.0.0.1',
      PORT: 0,
      CONSOLE_DIR: '/nonexistent',
      CORS_ORIGINS: [],
      BODY_LIMIT_BYTES: 1024 * 1024,
    },
    logger,
    registry,
    db: database.db,
    readiness: async () => ({ ok: true, checks: {} }),
    plugins: [
      createMarketPlugin({
        db: database.db,
        bus,
        logger,
        registry,
        clock,
        options: { wsBufferedBytesMax: BUFFERED_BYTES_MAX, wsSlowClientTimeoutMs: SLOW_CLIENT_TIMEOUT_MS },
      }),
    ],
  });
});

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
});

afterAll(async () => {
  await gateway?.close();
  await bus?.close();
  await database?.drop();
});

function connect(query: string): WebSocket {
  const socket = new WebSocket(`ws://127.0.0.1:${gateway.port}/api/market/ws${query}`);
  sockets.push(socket);
  return socket;
}

function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
}

function closed(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
}

let seq = 0;
function publishTick(pair: string, price: number) {
  const payload = { pair, price, atMs: clock.nowMs() + seq++ };
  return bus.publish('market.ticks.v1', pair, createEvent('market.ticks.v1', payload, { producer: 'test' }));
}

async function scrape(): Promise<string> {
  const res = await fetch(`${gateway.address}/metrics`);
  return res.text();
}

describe('WebSocket /api/market/ws', () => {
  it('sends a subscriber the ticks of its pair only, as {pair, price, ts}', async () => {
    const btc = connect('?pair=BTCUSDT');
    const eur = connect('?pair=eurusd');
    await Promise.all([opened(btc), opened(eur)]);
    const received: unknown[] = [];
    const eurReceived: unknown[] = [];
    btc.on('message', (data) => received.push(JSON.parse(String(data))));
    eur.on('message', (data) => eurReceived.push(JSON.parse(String(data))));
    await waitFor(async () => (await metricValue(registry, 'updown_ws_clients')) === 2, {
      what: 'two clients',
    });

    const first = seq;
    await publishTick('EURUSD', 1.16001);
    await publishTick('BTCUSDT', 95_000.5);
    await publishTick('XAUUSD', 4_050.25);
    await publishTick('BTCUSDT', 95_001.25);
    await waitFor(() => received.length === 2 && eurReceived.length === 1, { what: 'ticks' });
    expect(received).toEqual([
      { pair: 'BTCUSDT', price: 95_000.5, ts: clock.nowMs() + first + 1 },
      { pair: 'BTCUSDT', price: 95_001.25, ts: clock.nowMs() + first + 3 },
    ]);
    expect(eurReceived).toEqual([{ pair: 'EURUSD', price: 1.16001, ts: clock.nowMs() + first }]);
  });

  it('closes with 1008 and a reason when the pair is unknown, missing or malformed', async () => {
    for (const [query, reason] of [
      ['?pair=FOO', 'Unknown pair: FOO'],
      ['', 'Missing pair query parameter'],
      [`?pair=${'A'.repeat(33)}`, 'Invalid pair'],
      ['?pair=%E2%82%AC%E2%82%AC', 'Invalid pair'],
    ]) {
      const socket = connect(query!);
      expect(await closed(socket)).toEqual({ code: 1008, reason });
    }
    expect(
      await metricValue(registry, 'updown_ws_connections_refused_total', { reason: 'unknown_pair' }),
    ).toBe(1);
  });

  it('ends an upgrade sent to a path that serves no WebSocket instead of leaving the socket open', async () => {
    // Routes without a WebSocket handler (the console's catch-all included) accept and close at once.
    for (const path of ['/healthz', '/api/market/pairs', '/no-such-path']) {
      const socket = new WebSocket(`ws://127.0.0.1:${gateway.port}${path}`);
      socket.on('error', () => undefined);
      sockets.push(socket);
      expect((await closed(socket)).code, path).toBe(1005);
    }
  });

  it('counts connections per pair in /metrics', async () => {
    const before = await scrape();
    expect(before).not.toMatch(/updown_ws_clients\{pair="XAUUSD"\} [1-9]/);
    const socket = connect('?pair=XAUUSD');
    await opened(socket);
    await waitFor(async () => /updown_ws_clients\{pair="XAUUSD"\} 1\b/.test(await scrape()), {
      what: 'gauge up',
    });
    socket.close();
    await waitFor(async () => /updown_ws_clients\{pair="XAUUSD"\} 0\b/.test(await scrape()), {
      what: 'gauge down',
    });
  });

  it('skips a client that stops reading, keeping its server buffer bounded, then disconnects it', async () => {
    const slow = connect('?pair=USDJPY');
    const fast = connect('?pair=USDJPY');
    await Promise.all([opened(slow), opened(fast)]);
    let fastReceived = 0;
    fast.on('message', () => fastReceived++);
    slow.pause();
    await waitFor(async () => (await metricValue(registry, 'updown_ws_clients', { pair: 'USDJPY' })) === 2);

    // Publish until the kernel's socket buffers (a few MB on loopback) are full and the server
    // starts skipping the slow client, then as many again, sampling the server's queued bytes.
    const message = JSON.stringify({ pair: 'USDJPY', price: 155.123, ts: clock.nowMs() }).length + 8;
    const dropped = () => metricValue(registry, 'updown_ws_messages_dropped_total', { pair: 'USDJPY' });
    let sent = 0;
    let bufferedMax = 0;
    const publishBatch = async () => {
      for (let i = 0; i < 1_000; i++) await publishTick('USDJPY', 155 + (sent++ % 1000) / 1000);
      await waitFor(() => fastReceived === sent, { timeoutMs: 10_000, what: 'the fast client to keep up' });
      bufferedMax = Math.max(bufferedMax, await metricValue(registry, 'updown_ws_buffered_bytes'));
    };
    while ((await dropped()) === 0 && sent < 1_000_000) await publishBatch();
    const firstDropAt = sent;
    while (sent < 2 * firstDropAt) await publishBatch();

    expect(await dropped()).toBeGreaterThan(firstDropAt / 2);
    expect(bufferedMax).toBeGreaterThan(0);
    expect(bufferedMax).toBeLessThanOrEqual(BUFFERED_BYTES_MAX + message);
    expect(fastReceived).toBe(sent);

    // Still over the bound once the timeout has passed: the server cuts it off.
    clock.advance(SLOW_CLIENT_TIMEOUT_MS);
    await publishTick('USDJPY', 155);
    await waitFor(async () => (await metricValue(registry, 'updown_ws_slow_clients_terminated_total')) === 1);
    expect(await metricValue(registry, 'updown_ws_clients', { pair: 'USDJPY' })).toBe(1);
    const slowClosed = closed(slow);
    slow.resume(); // a paused client only notices the closed connection once it reads again
    expect((await slowClosed).code).toBe(1006);
    expect(fast.readyState).toBe(WebSocket.OPEN);
  });

  it('closes its sockets with 1001 when the gateway shuts down, even one that stopped reading', async () => {
    const { logger } = memoryLogger('silent');
    const ownRegistry = createMetricsRegistry();
    const own = await startGateway({
      config: {
        HOST: '127.0.0.1',
        PORT: 0,
        CONSOLE_DIR: '/nonexistent',
        CORS_ORIGINS: [],
        BODY_LIMIT_BYTES: 1024 * 1024,
      },
      logger,
      registry: ownRegistry,
      db: database.db,
      readiness: async () => ({ ok: true, checks: {} }),
      plugins: [createMarketPlugin({ db: database.db, bus, logger, registry: ownRegistry, clock })],
    });
    const polite = new WebSocket(`ws://127.0.0.1:${own.port}/api/market/ws?pair=BTCUSDT`);
    const stuck = new WebSocket(`ws://127.0.0.1:${own.port}/api/market/ws?pair=BTCUSDT`);
    sockets.push(polite, stuck);
    await Promise.all([opened(polite), opened(stuck)]);
    await waitFor(async () => (await metricValue(ownRegistry, 'updown_ws_clients')) === 2);
    stuck.pause();
    const politeClosed = closed(polite);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await politeClosed).toEqual({ code: 1001, reason: 'Server shutting down' });
  });
});
