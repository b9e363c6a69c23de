import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlOf } from '@updown/schemas/openapi';
import { newUser, signIn, signUp } from './accounts';
import {
  ApiCallError,
  ApiClient,
  fetchTransport,
  injectTransport,
  type Answer,
  type Injectable,
  type WireRequest,
} from './client';

/** A transport that records each request and answers from a script. */
function scripted(answer: (request: WireRequest) => { status: number; body?: unknown }) {
  const requests: WireRequest[] = [];
  const transport = async (request: WireRequest) => {
    requests.push(request);
    const { status, body } = answer(request);
    return { status, text: body === undefined ? '' : JSON.stringify(body), headers: {} };
  };
  return { requests, transport };
}

describe('ApiClient over a transport', () => {
  it('fills the path template and the query, and sends the token, the key and JSON', async () => {
    const { requests, transport } = scripted(() => ({ status: 200, body: [] }));
    const api = new ApiClient(transport);
    await api.get('/api/market/candles', {
      query: { pair: 'BTC/USDT', timeframe: '1m', limit: 5 },
      token: 'T',
    });
    await api.delete('/api/admin/pairs/{symbol}', { params: { symbol: 'ETH/USD' } });
    await api.post(
      '/api/trades/place',
      { pair: 'BTCUSDT', direction: 'UP', amount: 10, duration: 60, account_type: 'demo' },
      { token: 'T', idempotencyKey: 'k-1' },
    );
    expect(requests[0]).toMatchObject({
      method: 'GET',
      url: '/api/market/candles?pair=BTC%2FUSDT&timeframe=1m&limit=5',
      headers: { authorization: 'Bearer T' },
      body: undefined,
    });
    expect(requests[1]).toMatchObject({ method: 'DELETE', url: '/api/admin/pairs/ETH%2FUSD' });
    expect(requests[2]).toMatchObject({
      method: 'POST',
      url: '/api/trades/place',
      headers: { authorization: 'Bearer T', 'idempotency-key': 'k-1', 'content-type': 'application/json' },
    });
    expect(JSON.parse(requests[2]!.body as string)).toMatchObject({ pair: 'BTCUSDT', amount: 10 });
  });

  it('throws the status, detail and code of a refused set-up call; send and raw answer it instead', async () => {
    const refusal = { status: 422, body: { code: 'INSUFFICIENT_FUNDS', detail: 'Insufficient balance' } };
    const { transport } = scripted(() => refusal);
    const api = new ApiClient(transport);
    const error = await api.get('/api/wallet').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error).toMatchObject({ status: 422, code: 'INSUFFICIENT_FUNDS', detail: 'Insufficient balance' });
    expect((error as Error).message).toBe('GET /api/wallet answered 422: Insufficient balance');
    const answer = await api.send('get', '/api/wallet');
    expect(answer).toMatchObject({ status: 422, body: refusal.body });
    const raw = await api.raw('POST', '/api/nowhere', 'not an object');
    expect(raw.status).toBe(422);
  });

  it('reports every answer and every failure to its observers, under the path template', async () => {
    const seen: string[] = [];
    let fail = false;
    const transport = async () => {
      if (fail) throw new Error('connection refused');
      return { status: 204, text: '', headers: {} };
    };
    const api = new ApiClient(transport, {
      onAnswer: (name, answer: Answer<unknown>) => seen.push(`${name} ${answer.status}`),
      onFailure: (name, error) => seen.push(`${name} ${(error as Error).message}`),
    });
    await api.send('delete', '/api/admin/pairs/{symbol}', undefined, { params: { symbol: 'X' } });
    fail = true;
    await expect(api.raw('GET', '/healthz', undefined, { name: 'health' })).rejects.toThrow(
      'connection refused',
    );
    expect(seen).toEqual(['DELETE /api/admin/pairs/{symbol} 204', 'health connection refused']);
  });

  it('refuses a template whose parameter is missing', () => {
    expect(() => urlOf('/api/admin/pairs/{symbol}', {})).toThrow('missing path parameter symbol');
  });
});

describe('fetchTransport', () => {
  let server: Server;
  let baseUrl: string;
  const received: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, headers: request.headers, body });
        if (request.url === '/slow') return; // never answers
        response.setHeader('content-type', 'application/json');
        response.setHeader('retry-after', '3');
        response.statusCode = request.url === '/api/wallet' ? 503 : 200;
        response.end(JSON.stringify({ detail: 'try later' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends over HTTP and hands back the status, the headers and the parsed body', async () => {
    const api = new ApiClient(`${baseUrl}/`);
    const answer = await api.send('get', '/api/wallet', undefined, { token: 'abc' });
    expect(answer).toMatchObject({ status: 503, body: { detail: 'try later' } });
    expect(answer.headers['retry-after']).toBe('3');
    expect(received.at(-1)).toMatchObject({ method: 'GET', url: '/api/wallet' });
    expect(received.at(-1)!.headers.authorization).toBe('Bearer abc');
  });

  it('gives up after its timeout', async () => {
    const api = new ApiClient(fetchTransport(baseUrl, { timeoutMs: 100 }));
    await expect(api.raw('GET', '/slow')).rejects.toThrow(/abort|timeout/i);
  });
});

describe('injectTransport', () => {
  it('serialises a multipart form as fetch would, with its boundary in the content type', async () => {
    const calls: Parameters<Injectable['inject']>[0][] = [];
    const app: Injectable = {
      inject: async (options) => {
        calls.push(options);
        return { statusCode: 201, body: '{"id":"d-1"}', headers: { 'content-type': 'application/json' } };
      },
    };
    const form = new FormData();
    form.append('kind', 'photo_id');
    form.append('file', new Blob([Uint8Array.from([37, 80, 68, 70])]), 'id.pdf');
    const answer = await new ApiClient(injectTransport(app)).raw('POST', '/api/identity/documents', form, {
      token: 'T',
    });
    expect(answer).toMatchObject({ status: 201, body: { id: 'd-1' } });
    const sent = calls[0]!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.headers.authorization).toBe('Bearer T');
    // A Buffer, not any other object: inject would send that as JSON.
    expect(Buffer.isBuffer(sent.payload)).toBe(true);
    const text = (sent.payload as Buffer).toString();
    expect(text).toContain('name="kind"');
    expect(text).toContain('filename="id.pdf"');
  });
});

describe('signUp and signIn', () => {
  it('registers, then signs in with the same credentials', async () => {
    const { requests, transport } = scripted((request) =>
      request.url === '/api/auth/register'
        ? { status: 201, body: { id: 'u-1' } }
        : { status: 200, body: { access_token: 'A', refresh_token: 'R', requires_2fa: false } },
    );
    const user = newUser('Race Trader');
    expect(user.email).toMatch(/^race-trader-[0-9a-f]{10}@example\.com$/);
    const signedUp = await signUp(new ApiClient(transport), user);
    expect(signedUp).toMatchObject({ id: 'u-1', accessToken: 'A', refreshToken: 'R', email: user.email });
    expect(requests.map((r) => r.url)).toEqual(['/api/auth/register', '/api/auth/login']);
    expect(JSON.parse(requests[1]!.body as string)).toEqual({ email: user.email, password: user.password });
  });

  it('refuses to pass off a half sign-in (a second factor is due) as a session', async () => {
    const { transport } = scripted(() => ({
      status: 200,
      body: { access_token: 'temp', refresh_token: '', requires_2fa: true },
    }));
    await expect(signIn(new ApiClient(transport), { email: 'a@example.com', password: 'p' })).rejects.toThrow(
      'needs a second factor',
    );
  });
});
