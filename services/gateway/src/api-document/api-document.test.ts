import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_PROVIDERS, FEED_PROVIDERS } from '@updown/schemas/api';
import { registeredRoutes } from '../app';
import type { GatewayInstance } from '../http/instance';
import { DocumentRequests, type DocumentRequest } from '../testing/document-requests';
import { buildDocumentedApp } from './api-document';

/**
 * The OpenAPI document states the server's rules: it is a valid OpenAPI 3.0 document (checked by
 * an independent validator), it lists every route the gateway serves, and for each rule the
 * server refuses a request with (400 and a readable `detail`), the document refuses it too, so a
 * client generated from it never sends it. Requests that pass the server's schema pass the
 * document. The app is the whole API over a database that answers nothing: schema refusals come
 * before any handler, so no query is needed; an access token gets authenticated routes there.
 */

let app: GatewayInstance;
let doc: { paths: Record<string, Record<string, Record<string, unknown>>> } & Record<string, unknown>;
let judge: DocumentRequests;
let bearer: string;

beforeAll(async () => {
  app = await buildDocumentedApp();
  doc = (await app.inject({ url: '/docs/json' })).json();
  judge = await DocumentRequests.of(doc);
  const jwt = (app as unknown as { jwt: { sign(claims: object): string } }).jwt;
  const exp = Math.floor(Date.now() / 1000) + 3600;
  bearer = `Bearer ${jwt.sign({ sub: randomUUID(), role: 'user', typ: 'access', sid: randomUUID(), exp })}`;
});
afterAll(async () => app?.close());

interface Case extends DocumentRequest {
  /** The `detail` the server answers, exactly. */
  readonly detail: string;
  readonly code?: string;
}

function withQuery(url: string, query: DocumentRequest['query']): string {
  return query ? `${url}?${new URLSearchParams(query as Record<string, string>).toString()}` : url;
}

async function serverAnswer(request: DocumentRequest) {
  return app.inject({
    method: request.method as 'POST',
    url: withQuery(request.url, request.query),
    headers: { authorization: bearer, ...request.headers },
    ...(request.body === undefined ? {} : { payload: request.body as object }),
  });
}

const register = (fields: Record<string, unknown>): DocumentRequest => ({
  method: 'POST',
  url: '/api/auth/register',
  body: { name: 'Ann Lee', email: 'ann@example.com', password: 'a-long-password', ...fields },
});
const place = (fields: Record<string, unknown>): DocumentRequest => ({
  method: 'POST',
  url: '/api/trades/place',
  body: { pair: 'BTCUSDT', direction: 'UP', amount: 10, duration: 60, account_type: 'demo', ...fields },
});
const payment = (url: string, amount: unknown): DocumentRequest => ({
  method: 'POST',
  url,
  body: { amount, account_type: 'real' },
});
const candles = (query: Record<string, string>): DocumentRequest => ({
  method: 'GET',
  url: '/api/market/candles',
  query: { pair: 'BTCUSDT', timeframe: '1m', ...query },
});
const DURATIONS = 'Duration must be one of 60, 120, 180, 240, 300, 900, 1800, 2700, 3600 seconds';
const PAIR_SHAPE =
  'pair must be a pair symbol such as BTCUSDT: letters, digits, dot, dash or underscore, at most 32 characters';

const REFUSED: readonly Case[] = [
  {
    ...register({ password: 'short' }),
    detail: 'Password must be at least 8 characters',
    code: 'INVALID_ACCOUNT_DETAILS',
  },
  { ...register({ password: 'x'.repeat(129) }), detail: 'Password must be at most 128 characters' },
  { ...register({ password: ' '.repeat(12) }), detail: 'Password cannot be only spaces' },
  {
    ...register({ email: 'not-an-email' }),
    detail: 'Enter a valid email address',
    code: 'INVALID_ACCOUNT_DETAILS',
  },
  { ...register({ email: 'ann@example' }), detail: 'Enter a valid email address' },
  { ...register({ email: `${'a'.repeat(250)}@example.com` }), detail: 'Enter a valid email address' },
  { ...register({ name: '' }), detail: 'Name is required' },
  { ...register({ name: 'x'.repeat(101) }), detail: 'Name must be at most 100 characters' },
  { ...register({ name: '   ' }), detail: 'Name is required and cannot contain control characters' },
  { ...register({ role: 'admin' }), detail: 'role is not allowed' },
  { ...place({ amount: 0.5 }), detail: 'Minimum trade amount is $1.00', code: 'INVALID_AMOUNT' },
  { ...place({ amount: 0 }), detail: 'Minimum trade amount is $1.00' },
  { ...place({ amount: 5_000.01 }), detail: 'Maximum trade amount is $5,000.00' },
  { ...place({ amount: 10.005 }), detail: 'Please enter a valid amount', code: 'INVALID_AMOUNT' },
  { ...place({ duration: 61 }), detail: DURATIONS, code: 'INVALID_DURATION' },
  { ...place({ duration: 0 }), detail: DURATIONS },
  { ...place({ pair: '<script>' }), detail: PAIR_SHAPE },
  { ...place({ pair: 'A'.repeat(33) }), detail: PAIR_SHAPE },
  { ...place({ direction: 'SIDEWAYS' }), detail: 'direction must be one of: UP, DOWN' },
  { ...payment('/api/wallet/deposit', 0), detail: 'Please enter a valid amount', code: 'INVALID_AMOUNT' },
  { ...payment('/api/wallet/deposit', 10.001), detail: 'Please enter a valid amount' },
  { ...payment('/api/wallet/deposit', 100_000.01), detail: 'Maximum deposit amount is $100,000.00' },
  { ...payment('/api/wallet/withdraw', -5), detail: 'Please enter a valid amount' },
  { ...payment('/api/wallet/withdraw', 100_000.01), detail: 'Maximum withdrawal amount is $100,000.00' },
  { ...candles({ limit: '5000' }), detail: 'query parameter limit must be <= 1000', code: 'VALIDATION' },
  { ...candles({ limit: '0' }), detail: 'query parameter limit must be >= 1' },
  { ...candles({ pair: 'BTC USDT' }), detail: PAIR_SHAPE },
  {
    ...candles({ timeframe: '2m' }),
    detail: 'query parameter timeframe must be one of: 1m, 5m, 15m, 30m, 1h',
  },
  {
    method: 'GET',
    url: '/api/trades/history',
    query: { limit: '101' },
    detail: 'query parameter limit must be <= 100',
  },
  {
    method: 'GET',
    url: '/api/wallet/transactions',
    query: { limit: '201' },
    detail: 'query parameter limit must be <= 200',
  },
  {
    method: 'GET',
    url: '/api/trades/:id',
    params: { id: 'not-a-uuid' },
    detail: 'path parameter id must match format "uuid"',
  },
  {
    method: 'POST',
    url: '/api/auth/refresh',
    body: { refresh_token: 'x'.repeat(513) },
    detail: 'refresh_token must NOT have more than 512 characters',
  },
  { method: 'POST', url: '/api/auth/logout', body: { token: 'x' }, detail: 'refresh_token is required' },
];

/**
 * Requests every rule above lets through: the document must not refuse what the server takes.
 * Past the schema the handler meets a database that answers nothing, so a few end in a handler's
 * own refusal (`handler`), which proves the schema let them by.
 */
const ACCEPTED: readonly (DocumentRequest & { handler?: string })[] = [
  register({}),
  register({ email: '  Ann@Example.COM ', password: '😀'.repeat(8) }),
  place({ amount: 1 }),
  place({ amount: 10.29, duration: 3600, pair: 'eurusd' }),
  place({ amount: 5_000 }),
  payment('/api/wallet/deposit', 0.01),
  payment('/api/wallet/withdraw', 100_000),
  { ...candles({ limit: '1000' }), handler: 'Unknown pair: BTCUSDT' },
  { ...candles({}), handler: 'Unknown pair: BTCUSDT' },
  { method: 'POST', url: '/api/auth/refresh', body: { refresh_token: 'abc' } },
  { method: 'POST', url: '/api/auth/logout', query: { refresh_token: 'abc' } },
];

function concrete(request: DocumentRequest): DocumentRequest {
  const url = Object.entries(request.params ?? {}).reduce(
    (u, [k, v]) => u.replace(`:${k}`, String(v)),
    request.url,
  );
  return { ...request, url };
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.0 document with named component schemas and described responses', () => {
    expect(doc.openapi).toBe('3.0.3');
    const text = JSON.stringify(doc);
    expect(text).not.toContain('Default Response');
    const components = (doc.components as { schemas: Record<string, unknown> }).schemas;
    for (const name of [
      'PlaceTradeBody',
      'Trade',
      'RegisterRequest',
      'DepositBody',
      'WithdrawBody',
      'ErrorResponse',
    ]) {
      expect(components, name).toHaveProperty(name);
    }
    const body = doc.paths['/api/trades/place']!.post!.requestBody as {
      content: Record<string, { schema: unknown }>;
    };
    expect(body.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/PlaceTradeBody' });
  });

  it('documents every route the gateway serves', () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const served = registeredRoutes(app)
      .filter((route) => route.url.startsWith('/api/') && !route.websocket)
      .map((route) => `${route.method} ${route.url}`);
    expect(served.length).toBeGreaterThan(30);
    for (const route of served) expect(documented, route).toContain(route);
  });

  it('declares 413 and 415 on every operation that takes a body, and /metrics as text/plain', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!['post', 'put', 'patch'].includes(method)) continue;
        const responses = op.responses as Record<string, unknown>;
        expect(responses, `${method} ${path}`).toHaveProperty('413');
        expect(responses, `${method} ${path}`).toHaveProperty('415');
      }
    }
    const metrics = doc.paths['/metrics']!.get!.responses as Record<string, { content: object }>;
    expect(Object.keys(metrics['200']!.content)).toEqual(['text/plain']);
  });

  it('speaks of deposits and withdrawals in their Idempotency-Key, not trades', () => {
    const keyText = (path: string) =>
      (doc.paths[path]!.post!.parameters as { name: string; description: string }[]).find(
        (p) => p.name === 'idempotency-key',
      )!.description;
    expect(keyText('/api/wallet/deposit')).toMatch(/deposit/);
    expect(keyText('/api/wallet/withdraw')).toMatch(/withdrawal/);
    for (const path of ['/api/wallet/deposit', '/api/wallet/withdraw'])
      expect(keyText(path)).not.toMatch(/trade/);
  });

  it('shows the refresh token in an optional body, the query form and the cookie beside it', () => {
    for (const path of ['/api/auth/refresh', '/api/auth/logout']) {
      const op = doc.paths[path]!.post!;
      expect(op.requestBody).toMatchObject({ required: false });
      expect(op.parameters).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'refresh_token', in: 'query', required: false }),
          expect.objectContaining({ name: 'updown_refresh', in: 'cookie', required: false }),
        ]),
      );
    }
  });

  it('declares the session headers and cookie as parameters of the operations that read them', () => {
    const inputs = (path: string) =>
      (doc.paths[path]!.post!.parameters as { name: string; in: string }[] | undefined)
        ?.filter((p) => p.in !== 'query')
        .map((p) => `${p.in} ${p.name}`);
    const form = 'header x-updown-session';
    const csrf = 'header x-csrf-token';
    const cookie = 'cookie updown_refresh';
    const expected: Record<string, string[]> = {
      '/api/auth/login': [form],
      '/api/auth/google-login': [form],
      '/api/2fa/verify': [form],
      '/api/auth/refresh': [form, csrf, cookie],
      '/api/auth/logout': [csrf, cookie],
    };
    for (const [path, declared] of Object.entries(expected)) {
      expect(inputs(path), path).toEqual(expect.arrayContaining(declared));
    }
    // Whatever operation tells a client to send one of the headers declares it.
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const prose = `${String(op.summary ?? '')} ${String(op.description ?? '')}`;
        const declared = ((op.parameters ?? []) as { name: string }[]).map((p) => p.name);
        if (/send[^.]*`X-Updown-Session|header `X-Updown-Session/i.test(prose))
          expect(declared, `${method} ${path}`).toContain('x-updown-session');
        if (/header `X-CSRF-Token`/i.test(prose))
          expect(declared, `${method} ${path}`).toContain('x-csrf-token');
      }
    }
  });

  it("declares the identity upload's multipart body, its two parts named and typed", () => {
    const body = doc.paths['/api/identity/documents']!.post!.requestBody as {
      required: boolean;
      content: Record<string, { schema: unknown }>;
    };
    expect(body.required).toBe(true);
    expect(Object.keys(body.content)).toEqual(['multipart/form-data']);
    expect(body.content['multipart/form-data']!.schema).toEqual({
      $ref: '#/components/schemas/IdentityUploadForm',
    });
    const form = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas
      .IdentityUploadForm!;
    expect(form).toMatchObject({
      type: 'object',
      required: ['kind', 'file'],
      additionalProperties: false,
      properties: {
        kind: { $ref: '#/components/schemas/IdentityDocumentKind' },
        file: { type: 'string', format: 'binary' },
      },
    });
    const responses = doc.paths['/api/identity/documents']!.post!.responses as Record<string, unknown>;
    expect(responses['415']).toMatchObject({ description: expect.stringMatching(/multipart\/form-data$/) });
  });

  it('declares every refusal as JSON, the document download included, whatever its success answer is', () => {
    const download = doc.paths['/api/identity/documents/{id}']!.get!.responses as Record<
      string,
      { content?: Record<string, unknown> }
    >;
    expect(Object.keys(download['200']!.content!).sort()).toEqual(
      ['application/pdf', 'image/jpeg', 'image/png'].sort(),
    );
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(
          op.responses as Record<string, { content?: Record<string, unknown> }>,
        )) {
          if (!/^[45]/.test(status) || response.content === undefined) continue;
          expect(Object.keys(response.content), `${method} ${path} ${status}`).toEqual(['application/json']);
        }
      }
    }
  });

  it('names the real providers on the admin pair routes', () => {
    type Schema = { $ref?: string; properties?: Record<string, unknown> };
    const components = (doc.components as { schemas: Record<string, Schema> }).schemas;
    const resolve = (schema: Schema) =>
      schema.$ref ? components[schema.$ref.replace('#/components/schemas/', '')]! : schema;
    for (const [path, method] of [
      ['/api/admin/pairs', 'post'],
      ['/api/admin/pairs/{symbol}/feed', 'put'],
    ] as const) {
      const body = doc.paths[path]![method]!.requestBody as { content: Record<string, { schema: Schema }> };
      const { properties } = resolve(body.content['application/json']!.schema);
      expect(properties!.provider, path).toMatchObject({ type: 'string', enum: [...FEED_PROVIDERS] });
      expect(properties!.reference_provider, path).toMatchObject({
        type: 'string',
        nullable: true,
        enum: [...EXCHANGE_PROVIDERS, null],
      });
    }
  });

  it.each(
    REFUSED.map((c) => [`${c.method} ${c.url} ${JSON.stringify(c.body ?? c.query ?? c.params)}`, c] as const),
  )('refuses what the server refuses: %s', async (_name, refused) => {
    const res = await serverAnswer(concrete(refused));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toBe(refused.detail);
    if (refused.code) expect(res.json().code).toBe(refused.code);
    expect(judge.judge(refused).ok, 'the document lets it through').toBe(false);
  });

  it.each(ACCEPTED.map((c) => [`${c.method} ${c.url} ${JSON.stringify(c.body ?? c.query)}`, c] as const))(
    'takes what the server takes: %s',
    async (_name, accepted) => {
      const res = await serverAnswer(accepted);
      if (accepted.handler) expect(res.json().detail).toBe(accepted.handler);
      else expect(res.statusCode, res.body).not.toBe(400);
      expect(judge.judge(accepted)).toEqual({ ok: true });
    },
  );
});
