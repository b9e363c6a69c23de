import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '@updown/runtime';
import { OrderServiceUnavailable } from '../order-unavailable';
import type { PlaceTradeRequest } from '../trades/place-trade.handler';
import { createHttpOrderPort, type HttpOrderPort } from './order-client';
import { PLACE_TRADE_PATH } from './place-trade.wire';

/**
 * The gateway's HTTP client against a stand-in order service on loopback: what goes over the wire,
 * the connections it keeps, and how each kind of answer or silence reaches the gateway.
 */

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

interface StandIn {
  readonly url: string;
  readonly connections: () => number;
  readonly server: Server;
}

const TOKEN = 'a-service-token-for-tests-only-0123456789';
const request: PlaceTradeRequest = {
  userId: '00000000-0000-4000-8000-000000000001',
  pair: 'BTCUSDT',
  direction: 'UP',
  amountCents: 1_000,
  durationSec: 60,
  accountType: 'demo',
};

const servers: Server[] = [];
const ports: HttpOrderPort[] = [];

afterEach(async () => {
  await Promise.all(ports.splice(0).map((port) => port.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function standIn(handle: Handler): Promise<StandIn> {
  let connections = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, body, res));
  });
  server.on('connection', () => (connections += 1));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections, server };
}

function portTo(
  url: string,
  options: { timeoutMs?: number; connectionsMax?: number; queuedMax?: number } = {},
) {
  const port = createHttpOrderPort({ url, serviceToken: TOKEN, ...options });
  ports.push(port);
  return port;
}

function answer(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(body);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('the HTTP order port', () => {
  it('sends the command in cents with the service token, and keeps one connection for two placements', async () => {
    const seen: { path?: string; authorization?: string; body: unknown }[] = [];
    const order = await standIn((req, body, res) => {
      seen.push({ path: req.url, authorization: req.headers.authorization, body: JSON.parse(body) });
      answer(res, 201, '{"id":"t-1"}', { 'x-trade-view': 'public' });
    });
    // One connection allowed: without keep-alive the second call would need a second connection.
    const port = portTo(order.url, { connectionsMax: 1 });
    const first = await port.forwardPlacement(request);
    const second = await port.forwardPlacement({ ...request, idempotencyKey: 'k-1', expectedPayoutPct: 80 });
    expect(first).toEqual({ view: 'public', status: 201, body: '{"id":"t-1"}' });
    expect(second).toEqual(first);
    expect(order.connections()).toBe(1);
    expect(seen[0]).toEqual({
      path: PLACE_TRADE_PATH,
      authorization: `Bearer ${TOKEN}`,
      body: {
        user_id: request.userId,
        pair: 'BTCUSDT',
        direction: 'UP',
        amount_cents: 1_000,
        duration_sec: 60,
        account_type: 'demo',
      },
    });
    expect(seen[1]!.body).toMatchObject({ idempotency_key: 'k-1', expected_payout_pct: 80 });
  });

  it('reads a row answer into a trade row, and asks for rows when called as a plain OrderPort', async () => {
    const views: (string | string[] | undefined)[] = [];
    const row = { id: 't-2', status: 'won', amount_cents: 1_000, created_at: '2026-11-28T06:00:00.000Z' };
    const order = await standIn((req, _body, res) => {
      views.push(req.headers['x-trade-view']);
      answer(res, 200, JSON.stringify({ trade: row, replayed: true }), { 'x-trade-view': 'row' });
    });
    const port = portTo(order.url);
    const forwarded = await port.forwardPlacement(request);
    const placed = await port.placeTrade(request);
    expect(views).toEqual([undefined, 'row']);
    for (const result of [forwarded.view === 'row' ? forwarded.result : undefined, placed]) {
      expect(result?.replayed).toBe(true);
      expect(result?.trade.created_at).toEqual(new Date(row.created_at));
      expect(result?.trade.status).toBe('won');
    }
  });

  it.each([422, 400])('gives a refusal answered with %i its own code and text', async (status) => {
    const order = await standIn((_req, _body, res) =>
      answer(res, status, JSON.stringify({ detail: 'Price is stale', code: 'STALE_PRICE' })),
    );
    const error = await failure(portTo(order.url).forwardPlacement(request));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'STALE_PRICE', message: 'Price is stale' });
  });

  it.each([
    ['a 500', 500, JSON.stringify({ detail: 'Internal Server Error', code: 'INTERNAL' })],
    ['a 401 (the wrong token)', 401, JSON.stringify({ detail: 'A valid service token is required' })],
    ['a proxy page that is not JSON', 502, '<html>bad gateway</html>'],
    ['a 200 that is not JSON', 200, 'not json'],
  ])('turns %s into OrderServiceUnavailable', async (_name, status, body) => {
    const order = await standIn((_req, _body, res) => answer(res, status, body));
    expect(await failure(portTo(order.url).forwardPlacement(request))).toBeInstanceOf(
      OrderServiceUnavailable,
    );
  });

  it('gives up on an order service that does not answer within the timeout', async () => {
    const order = await standIn(() => undefined);
    const startedMs = Date.now();
    const error = await failure(portTo(order.url, { timeoutMs: 200 }).forwardPlacement(request));
    expect(error).toBeInstanceOf(OrderServiceUnavailable);
    expect(Date.now() - startedMs).toBeLessThan(2_000);
  });

  it('refuses at once a placement beyond the connections and the queue', async () => {
    const order = await standIn(() => undefined);
    const port = portTo(order.url, { timeoutMs: 1_000, connectionsMax: 1, queuedMax: 1 });
    const held = [failure(port.forwardPlacement(request)), failure(port.forwardPlacement(request))];
    const startedMs = Date.now();
    expect(await failure(port.forwardPlacement(request))).toBeInstanceOf(OrderServiceUnavailable);
    expect(Date.now() - startedMs).toBeLessThan(500);
    for (const error of await Promise.all(held)) expect(error).toBeInstanceOf(OrderServiceUnavailable);
  });

  it('answers OrderServiceUnavailable when nothing listens', async () => {
    // Port 9 (discard) is closed on loopback.
    const error = await failure(portTo('http://127.0.0.1:9').forwardPlacement(request));
    expect(error).toBeInstanceOf(OrderServiceUnavailable);
  });
});
