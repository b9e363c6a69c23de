import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { systemClock } from '@updown/runtime';
import { metricValue, waitFor } from '@updown/runtime/testing';
import { MARKET_PLUGIN_DEFAULTS } from '@updown/gateway';
import { createEvent } from '@updown/schemas';
import { MARKET_WS_CLOSE } from '@updown/schemas/api';
import { startSecurityPlatform, type SecurityPlatform } from './fuzz/platform';

/**
 * Hostile clients of the live price socket `/api/market/ws`, against the whole platform on a real
 * port: malformed queries, one address opening 1,000 sockets, and a client that never reads.
 */
const BUFFERED_BYTES_MAX = 16 * 1024;
const SLOW_CLIENT_TIMEOUT_MS = 500;
const STORM_SOCKETS = 1_000;
/** Ticks this file publishes carry prices from here up, so the feed's own ticks are told apart. */
const MARKER_PRICE = 10_000_000;
const PAIR = 'EURUSD';

let security: SecurityPlatform;
let wsUrl: string;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  security = await startSecurityPlatform(systemClock, {
    MARKET_WS_BUFFERED_BYTES_MAX: String(BUFFERED_BYTES_MAX),
    MARKET_WS_SLOW_CLIENT_TIMEOUT_MS: String(SLOW_CLIENT_TIMEOUT_MS),
    // The feed stays quiet; the ticks that matter here are published by the test.
    TICK_INTERVAL_MS: '60000',
  });
  wsUrl = `ws://127.0.0.1:${security.platform.gateway.port}/api/market/ws`;
}, 120_000);

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  // Closed sockets leave the per-address count once the server sees them go.
  await waitFor(async () => (await metric('updown_ws_clients')) === 0, { timeoutMs: 20_000 });
});

afterAll(async () => {
  await security?.stop();
});

function metric(name: string, labels?: Record<string, string>): Promise<number> {
  return metricValue(security.platform.registry, name, labels);
}

function connect(query: string): WebSocket {
  const socket = new WebSocket(`${wsUrl}${query}`);
  socket.on('error', () => undefined);
  sockets.push(socket);
  return socket;
}

type Outcome = { kind: 'closed'; code: number; reason: string } | { kind: 'http'; status: number };

/** How the server ended the connection: a close frame, or an HTTP answer instead of the upgrade. */
function outcome(socket: WebSocket): Promise<Outcome> {
  return new Promise((resolve) => {
    socket.once('close', (code, reason) => resolve({ kind: 'closed', code, reason: reason.toString() }));
    socket.once('unexpected-response', (request, response) => {
      resolve({ kind: 'http', status: response.statusCode ?? 0 });
      request.destroy();
    });
  });
}

function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('close', (code) => reject(new Error(`closed with ${code} before opening`)));
  });
}

let seq = 0;
function publishTick(pair = PAIR): Promise<void> {
  const payload = { pair, price: MARKER_PRICE + seq++, atMs: Date.now() };
  return security.platform.bus.publish(
    'market.ticks.v1',
    pair,
    createEvent('market.ticks.v1', payload, { producer: 'security-test' }),
  );
}

/** Counts the ticks this file published that `socket` received. */
function countMarked(socket: WebSocket): () => number {
  let count = 0;
  socket.on('message', (data) => {
    if ((JSON.parse(String(data)) as { price: number }).price >= MARKER_PRICE) count++;
  });
  return () => count;
}

/** The server still answers HTTP and serves a fresh price socket from another query. */
async function stillServing(): Promise<void> {
  const health = await fetch(`${security.baseUrl}/healthz`);
  expect(health.status).toBe(200);
  const pairs = await fetch(`${security.baseUrl}/api/market/pairs`);
  expect(pairs.status).toBe(200);
}

describe('hostile WebSocket clients', () => {
  it('refuses malformed queries with a close code and reason (or an HTTP 4xx) and stays up', async () => {
    const queries = [
      '',
      '?pair=',
      '?pair=FOO',
      '?pair=%E2%82%AC%E2%82%AC',
      '?pair=%F0%9F%98%80',
      '?pair=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      "?pair=BTCUSDT'%20OR%201=1--",
      '?pair=BTCUSDT&pair=EURUSD',
      '?pair[]=BTCUSDT',
      '?pair=%ZZ',
      '?pair=%00',
      `?pair=${'A'.repeat(4_000)}`,
      `?pair=${'9'.repeat(100_000)}`,
    ];
    for (const query of queries) {
      const result = await outcome(connect(query));
      const what = query.slice(0, 60);
      if (result.kind === 'http') {
        expect(result.status, what).toBeGreaterThanOrEqual(400);
        expect(result.status, what).toBeLessThan(500);
      } else {
        expect(result.code, what).toBe(MARKET_WS_CLOSE.POLICY_VIOLATION);
        expect(result.reason, what).toMatch(/pair/i);
        expect(result.reason, what).not.toMatch(/[<>']/);
      }
    }
    expect(await metric('updown_ws_connections_refused_total')).toBeGreaterThanOrEqual(queries.length - 1);
    await stillServing();
    const good = connect(`?pair=${PAIR}`);
    await opened(good);
    const received = countMarked(good);
    await waitFor(async () => (await metric('updown_ws_clients')) === 1);
    await publishTick();
    await waitFor(() => received() === 1, { what: 'a tick after the malformed queries' });
  }, 60_000);

  it('bounds how many sockets one address holds, refusing the rest with 1013, and keeps serving', async () => {
    const perAddress = MARKET_PLUGIN_DEFAULTS.wsClientsPerAddressMax;
    expect(perAddress).toBeLessThan(STORM_SOCKETS);
    const storm = Array.from({ length: STORM_SOCKETS }, () => connect(`?pair=${PAIR}`));
    const endings = storm.map((socket) => outcome(socket));
    const refused: Outcome[] = [];
    for (const ending of endings) void ending.then((result) => refused.push(result));
    await waitFor(() => refused.length === STORM_SOCKETS - perAddress, {
      timeoutMs: 60_000,
      what: 'every socket past the per-address bound to be refused',
    });

    for (const result of refused) {
      expect(result).toEqual({
        kind: 'closed',
        code: MARKET_WS_CLOSE.TRY_AGAIN_LATER,
        reason: 'Too many connections from this address; try again later',
      });
    }
    await waitFor(async () => (await metric('updown_ws_clients')) === perAddress, { timeoutMs: 20_000 });
    expect(await metric('updown_ws_connections_refused_total', { reason: 'address_limit' })).toBe(
      STORM_SOCKETS - perAddress,
    );
    // The sockets it holds are served, and so is everyone else.
    await stillServing();
    const admitted = storm.filter((socket) => socket.readyState === WebSocket.OPEN);
    expect(admitted).toHaveLength(perAddress);
    const counters = admitted.map(countMarked);
    await publishTick();
    await waitFor(() => counters.every((received) => received() === 1), { what: 'ticks to held sockets' });
    // Once they close, the address gets its places back.
    for (const socket of admitted) socket.close();
    await waitFor(async () => (await metric('updown_ws_clients')) === 0, { timeoutMs: 20_000 });
    await opened(connect(`?pair=${PAIR}`));
  }, 120_000);

  it('keeps a client that never reads to a bounded buffer, then drops it; others keep their ticks', async () => {
    const slow = connect(`?pair=${PAIR}`);
    const fast = connect(`?pair=${PAIR}`);
    await Promise.all([opened(slow), opened(fast)]);
    const fastReceived = countMarked(fast);
    slow.pause();
    await waitFor(async () => (await metric('updown_ws_clients')) === 2);

    // Publish until the kernel's socket buffers (a few MB on loopback) are full and the server
    // skips the slow client, sampling the bytes the server has queued; the fast client keeps up.
    const message = JSON.stringify({ pair: PAIR, price: MARKER_PRICE + 1e6, ts: Date.now() }).length + 8;
    const dropped = () => metric('updown_ws_messages_dropped_total', { pair: PAIR });
    const terminated = () => metric('updown_ws_slow_clients_terminated_total');
    let sent = 0;
    let bufferedMax = 0;
    const deadline = Date.now() + 90_000;
    while ((await terminated()) === 0) {
      expect(Date.now(), 'the slow client was never dropped').toBeLessThan(deadline);
      for (let i = 0; i < 500; i++, sent++) await publishTick();
      await waitFor(() => fastReceived() === sent, { timeoutMs: 20_000, what: 'the fast client to keep up' });
      bufferedMax = Math.max(bufferedMax, await metric('updown_ws_buffered_bytes'));
    }

    expect(await dropped()).toBeGreaterThan(0);
    expect(bufferedMax).toBeGreaterThan(0);
    expect(bufferedMax).toBeLessThanOrEqual(BUFFERED_BYTES_MAX + message);
    expect(await metric('updown_ws_clients', { pair: PAIR })).toBe(1);
    const slowClosed = outcome(slow);
    slow.resume(); // a paused client only notices the cut connection once it reads again
    expect(await slowClosed).toMatchObject({ kind: 'closed', code: 1006 });
    expect(fast.readyState).toBe(WebSocket.OPEN);
    const before = fastReceived();
    await publishTick();
    await waitFor(() => fastReceived() === before + 1, { what: 'a tick after the slow client went' });
  }, 150_000);
});
