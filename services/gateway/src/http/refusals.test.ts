import net from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createMetricsRegistry, type Counter } from '@updown/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGateway, type RunningGateway } from '../server';
import { isPlainPath } from './refusals';
import { memoryLogger, unreachableDb } from '../testing/test-app';

/**
 * Answers Fastify's hooks never see — refused by Node's HTTP parser, by Node itself, or by
 * Fastify's router — and requests whose client left first, sent as raw bytes over a real socket on
 * loopback (several never reach Fastify, so `inject` cannot make them). Each must leave one log
 * line with its status and request id, and one count in `updown_http_requests_total`.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/** Writes `bytes` on a fresh connection and reads until the server closes it. */
function exchange(port: number, bytes: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    // A server that never closes fails the test quickly instead of at the test's own timeout.
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (chunk: string) => (text += chunk));
    // A server that answers before reading everything sent may reset the connection after its answer.
    socket.on('error', (error) => (text === '' ? reject(error) : undefined));
    socket.on('close', () => resolve(parse(text)));
    socket.write(bytes);
  });
}

const STRICT_POLICY = "default-src 'none'; frame-ancestors 'none'";

describe('answers given before any hook', () => {
  const handle = unreachableDb();
  const memory = memoryLogger('debug');
  const registry = createMetricsRegistry();
  let gateway: RunningGateway;
  let slowEntered!: () => void;
  let releaseSlow!: () => void;
  const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));

  const routes: FastifyPluginAsyncTypebox = async (app) => {
    app.post('/api/test/items/:id', async () => ({ ok: true }));
    app.get('/api/test/slow', async () => {
      slowEntered();
      await slowReleased;
      return { done: true };
    });
    app.get('/api/test/socket', { websocket: true }, (socket) => socket.close(1000, 'bye'));
  };

  beforeAll(async () => {
    gateway = await startGateway({
      config: {
        HOST: '127.0.0.1',
        PORT: 0,
        CONSOLE_DIR: '/nonexistent',
        CORS_ORIGINS: [],
        BODY_LIMIT_BYTES: 1024 * 1024,
      },
      logger: memory.logger,
      registry,
      db: handle.db,
      readiness: async () => ({ ok: true, checks: {} }),
      plugins: [routes],
    });
  });
  afterAll(async () => {
    releaseSlow();
    await gateway.close();
    await handle.close();
  });

  const send = (bytes: string) => exchange(gateway.port, bytes);

  async function count(method: string, route: string, status: number): Promise<number> {
    const total = registry.getSingleMetric('updown_http_requests_total') as Counter;
    const series = (await total.get()).values.find(
      ({ labels }) =>
        labels.method === method && labels.route === route && labels.status_code === String(status),
    );
    return series?.value ?? 0;
  }

  /** The one line logged for `requestId` with `message`; waits briefly, as it follows the answer. */
  async function lineFor(requestId: string, message = 'request completed') {
    const matching = () => memory.lines().filter((l) => l.reqId === requestId && l.msg === message);
    for (let tries = 0; tries < 100 && matching().length === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(matching(), `${message} for ${requestId}`).toHaveLength(1);
    return matching()[0]!;
  }

  /** Sends `bytes`, then checks the answer's shape, its log line and its count. */
  async function refusal(
    bytes: string,
    expected: { status: number; code: string; method: string; route?: string; logged?: string },
  ) {
    const route = expected.route ?? 'rejected';
    const before = await count(expected.method, route, expected.status);
    const res = await send(bytes);
    expect(res.status, res.body).toBe(expected.status);
    expect(JSON.parse(res.body)).toEqual({ detail: expect.any(String), code: expected.code });
    expect(res.headers['content-security-policy']).toBe(STRICT_POLICY);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const requestId = res.headers['x-request-id'];
    expect(requestId).toMatch(/^[\w.:-]{1,64}$/);
    const line = await lineFor(requestId!);
    expect(line).toMatchObject({ statusCode: expected.status, route });
    expect(line.method).toBe(expected.logged ?? expected.method);
    expect(await count(expected.method, route, expected.status)).toBe(before + 1);
    return { res, line };
  }

  it('counts and logs a path parameter over the router limit (414), under the route "rejected"', async () => {
    const path = `/api/test/items/${'a'.repeat(200)}`;
    const { res, line } = await refusal(
      `POST ${path} HTTP/1.1\r\nHost: t\r\nx-request-id: probe-414\r\ncontent-length: 0\r\nConnection: close\r\n\r\n`,
      { status: 414, code: 'URI_TOO_LONG', method: 'POST' },
    );
    expect(res.headers['x-request-id']).toBe('probe-414');
    expect(line).toMatchObject({ path, reason: 'FST_ERR_MAX_PARAM_LENGTH' });
  });

  it('counts and logs a malformed percent-encoding (400) without the credential in its query', async () => {
    const { res, line } = await refusal(
      'GET /api/trades/%E0%A4%A?refresh_token=s3cret-value HTTP/1.1\r\nHost: t\r\nx-request-id: probe-pct\r\nConnection: close\r\n\r\n',
      { status: 400, code: 'BAD_REQUEST', method: 'GET' },
    );
    expect(res.headers['x-request-id']).toBe('probe-pct');
    expect(line).toMatchObject({ path: '/api/trades/%E0%A4%A', reason: 'FST_ERR_BAD_URL' });
    expect(line.url).toBe('/api/trades/%E0%A4%A?refresh_token=[redacted]');
    expect(JSON.stringify(memory.lines())).not.toContain('s3cret-value');
  });

  it("counts and logs a header Node's parser refuses, keeping the request id sent before it", async () => {
    const { res, line } = await refusal(
      'GET /api/market/pairs?token=abc123secret HTTP/1.1\r\nHost: t\r\nx-request-id: probe-header\r\nBad Header: x\r\n\r\n',
      { status: 400, code: 'BAD_REQUEST', method: 'GET' },
    );
    expect(res.headers['x-request-id']).toBe('probe-header');
    expect(line).toMatchObject({ path: '/api/market/pairs', reason: 'HPE_INVALID_HEADER_TOKEN' });
    expect(JSON.stringify(line)).not.toContain('abc123secret');
  });

  it('counts a malformed request line under one method label, whatever it holds', async () => {
    const { line } = await refusal('G3T$ / HTTP/1.1\r\nHost: t\r\n\r\n', {
      status: 400,
      code: 'BAD_REQUEST',
      method: 'UNKNOWN',
      logged: 'G3T$',
    });
    expect(line.reason).toBe('HPE_INVALID_METHOD');
  });

  it('counts and logs a URL longer than the header limit (431), logging only its start', async () => {
    const { line } = await refusal(`GET /${'x'.repeat(20_000)} HTTP/1.1\r\nHost: t\r\n\r\n`, {
      status: 431,
      code: 'HEADERS_TOO_LARGE',
      method: 'GET',
    });
    expect(line.reason).toBe('HPE_HEADER_OVERFLOW');
    expect(String(line.path).length).toBeLessThan(600);
  });

  it('refuses an HTTP/1.1 request without Host inside the lifecycle, counted under its route', async () => {
    const { res } = await refusal(
      'GET /healthz HTTP/1.1\r\nx-request-id: probe-host\r\nConnection: close\r\n\r\n',
      {
        status: 400,
        code: 'BAD_REQUEST',
        method: 'GET',
        route: '/healthz',
      },
    );
    expect(res.headers['x-request-id']).toBe('probe-host');
  });

  it('answers an expectation other than 100-continue (417) and CONNECT (405) in the same way', async () => {
    await refusal('GET /healthz HTTP/1.1\r\nHost: t\r\nExpect: magic\r\nx-request-id: probe-expect\r\n\r\n', {
      status: 417,
      code: 'EXPECTATION_FAILED',
      method: 'GET',
    });
    await refusal('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', {
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      method: 'CONNECT',
    });
  });

  it.each([
    '//metrics',
    '/./metrics',
    '/%2e/metrics',
    '/a/../metrics',
    '/.//healthz',
    '//api/test/slow',
    '/x\\..\\metrics',
  ])('answers the path %s, not in its plain form, as an unknown path (404) rather than 403', async (path) => {
    for (const accept of ['application/json', 'text/html']) {
      const res = await send(
        `GET ${path} HTTP/1.1\r\nHost: t\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, `${path} (${accept}): ${res.body}`).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
      expect(res.headers['content-security-policy']).toBe(STRICT_POLICY);
    }
  });

  it('still serves the plain paths: /metrics, and an unknown one is the same 404', async () => {
    const metrics = await send('GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('updown_http_requests_total');
    const unknown = await send(
      'GET /no-such-path HTTP/1.1\r\nHost: t\r\nAccept: application/json\r\nConnection: close\r\n\r\n',
    );
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
  });

  it('still serves 100-continue and HTTP/1.0 without Host', async () => {
    const continued = await send(
      'GET /healthz HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
    );
    expect(continued.status).toBe(100);
    expect(continued.body).toContain('HTTP/1.1 200 OK');
    expect((await send('GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('logs and counts a request whose client left before the answer (499)', async () => {
    const before = await count('GET', '/api/test/slow', 499);
    const entered = new Promise<void>((resolve) => (slowEntered = resolve));
    const socket = net.connect(gateway.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('GET /api/test/slow HTTP/1.1\r\nHost: t\r\nx-request-id: probe-gone\r\n\r\n');
    await entered;
    socket.destroy();
    const line = await lineFor('probe-gone', 'request aborted');
    expect(line).toMatchObject({ statusCode: 499, route: '/api/test/slow', path: '/api/test/slow' });
    expect(await count('GET', '/api/test/slow', 499)).toBe(before + 1);
    // The handler finishing later adds nothing.
    releaseSlow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      memory.lines().filter((l) => l.reqId === 'probe-gone' && l.msg !== 'incoming request'),
    ).toHaveLength(1);
    expect(await count('GET', '/api/test/slow', 200)).toBe(0);
  });

  it('logs and counts a WebSocket upgrade when its socket closes, not as a client that left', async () => {
    const before = await count('GET', '/api/test/socket', 101);
    const socket = new WebSocket(`ws://127.0.0.1:${gateway.port}/api/test/socket`, {
      headers: { 'x-request-id': 'probe-socket' },
    });
    await new Promise((resolve) => socket.once('close', resolve));
    const line = await lineFor('probe-socket');
    expect(line).toMatchObject({ statusCode: 101, route: '/api/test/socket', method: 'GET' });
    expect(await count('GET', '/api/test/socket', 101)).toBe(before + 1);
    expect(memory.lines().filter((l) => l.reqId === 'probe-socket' && l.msg === 'request aborted')).toEqual(
      [],
    );
  });

  it('answers, logs and counts a WebSocket handshake that ws refuses', async () => {
    const { res } = await refusal(
      'GET /api/test/socket HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nx-request-id: probe-handshake\r\n\r\n',
      { status: 400, code: 'BAD_REQUEST', method: 'GET', route: '/api/test/socket' },
    );
    expect(res.headers['x-request-id']).toBe('probe-handshake');
  });
});

describe('isPlainPath', () => {
  it.each([
    '/',
    '/metrics',
    '/metrics/',
    '/api/trades/1?x=//..',
    '/.well-known/updown-keys.json',
    '/a%20b',
    '/a..b',
  ])('takes %s', (url) => expect(isPlainPath(url)).toBe(true));

  it.each([
    '//',
    '//metrics',
    '/./metrics',
    '/metrics/.',
    '/a/../b',
    '/%2E%2E/b',
    '/a%2F%2Fb',
    '/a\\b',
    '/.',
  ])('refuses %s', (url) => expect(isPlainPath(url)).toBe(false));
});
