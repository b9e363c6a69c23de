import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError } from '@updown/runtime';
import { RequestBody } from '@updown/schemas/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponses } from './http/responses';
import { databaseReadiness } from './http/health';
import { fakeConsoleDir, memoryLogger, testApp, unreachableDb } from './testing/test-app';

/** Routes a later feature would add, to prove they inherit validation and error mapping. */
const featureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/test/orders',
    {
      schema: {
        body: RequestBody({
          amount: Type.Number({ minimum: 1 }),
          direction: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
          note: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: { 200: Type.Object({ accepted: Type.Number() }), ...errorResponses(400) },
      },
    },
    async (request) => ({ accepted: request.body.amount }),
  );
  app.get(
    '/api/test/list',
    {
      schema: {
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: 200 }),
          note: Type.Optional(Type.String()),
        }),
      },
    },
    async (request) => ({ limit: request.query.limit }),
  );
  app.get('/api/test/funds', async () => {
    throw new DomainError('INSUFFICIENT_FUNDS', 'Insufficient balance');
  });
  app.get('/api/test/crash', async () => {
    throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
  });
};

describe('gateway app', () => {
  let consoleDir: Awaited<ReturnType<typeof fakeConsoleDir>>;
  let t: ReturnType<typeof testApp>;

  beforeAll(async () => {
    consoleDir = await fakeConsoleDir();
    t = testApp({ plugins: [featureRoutes], config: { CONSOLE_DIR: consoleDir.dir } });
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
    await consoleDir.cleanup();
  });

  describe('operations endpoints', () => {
    it('answers /healthz', async () => {
      const res = await t.app.inject({ url: '/healthz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    });

    it('answers /readyz from the readiness function', async () => {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', checks: { database: true, migrations: true } });
    });

    it('serves Prometheus text with default and HTTP metrics', async () => {
      await t.app.inject({ url: '/healthz' });
      await t.app.inject({ url: '/api/test/list?limit=3' });
      await t.app.inject({ url: '/api/random-probe-123' });
      const res = await t.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toContain('process_cpu_user_seconds_total');
      expect(res.body).toMatch(
        /updown_http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} \d+/,
      );
      expect(res.body).toMatch(
        /updown_http_requests_total\{method="GET",route="\/api\/test\/list",status_code="200"\} 1/,
      );
      // Unknown paths share one label; raw URLs never become label values.
      expect(res.body).toMatch(/route="unmatched",status_code="404"/);
      expect(res.body).not.toContain('random-probe-123');
      expect(res.body).not.toContain('route="/metrics"');
    });

    it('publishes an OpenAPI 3 document', async () => {
      const res = await t.app.inject({ url: '/docs/json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.info.title).toBe('Updown API');
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/healthz', '/readyz', '/metrics', '/api/test/orders']),
      );
      const health = doc.paths['/healthz'].get.responses;
      expect(health['200']).toBeDefined();
      // Named schemas are components, referenced by `$ref` (see http/openapi-shape.ts).
      expect(health['5XX'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ErrorResponse',
      });
      expect(doc.components.schemas.ErrorResponse.properties).toHaveProperty('detail');
      expect(health['200'].description).not.toBe('Default Response');
      expect(doc.paths['/api/test/orders'].post.responses['400']).toBeDefined();
    });

    it('serves the price WebSocket as AsyncAPI next to the OpenAPI document, naming this server', async () => {
      const res = await t.app.inject({
        url: '/docs/asyncapi/market-ws.json',
        headers: { host: 'api.example:8443' },
      });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.asyncapi).toBe('3.0.0');
      expect(doc.servers.gateway).toMatchObject({ host: 'api.example:8443', protocol: 'ws' });
      expect(doc.channels.marketPrices.address).toBe('/api/market/ws');
    });

    it('serves the Swagger UI page under the same security policy', async () => {
      const page = await t.app.inject({ url: '/docs/' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('swagger-ui-bundle.js');
      // Every script the page loads is a same-origin file, which script-src 'self' allows.
      expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
      // Swagger UI applies an inline style at run time; only the docs pages allow that.
      expect(page.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
      expect(page.headers['content-security-policy']).toContain("script-src 'self';");
      const script = await t.app.inject({ url: '/docs/static/swagger-ui-bundle.js' });
      expect(script.statusCode).toBe(200);
      const initializer = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
      expect(initializer.statusCode).toBe(200);
    });
  });

  describe('errors', () => {
    it('names the field of a validation error', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/orders',
        payload: { amount: 0, direction: 'UP' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'amount must be >= 1', code: 'VALIDATION' });
    });

    it('names a missing field and lists allowed values', async () => {
      const missing = await t.app.inject({ method: 'POST', url: '/api/test/orders', payload: { amount: 5 } });
      expect(missing.json()).toEqual({ detail: 'direction is required', code: 'VALIDATION' });
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/test/orders',
        payload: { amount: 5, direction: 'SIDEWAYS' },
      });
      expect(wrong.json()).toEqual({ detail: 'direction must be one of: UP, DOWN', code: 'VALIDATION' });
    });

    it('rejects unknown body fields instead of dropping them', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/orders',
        payload: { amount: 5, direction: 'UP', entry_price: 1.2345 },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'entry_price is not allowed', code: 'VALIDATION' });
    });

    it('does not coerce JSON body types but does coerce query strings', async () => {
      const body = await t.app.inject({
        method: 'POST',
        url: '/api/test/orders',
        payload: { amount: '5', direction: 'UP' },
      });
      expect(body.json()).toEqual({ detail: 'amount must be number', code: 'VALIDATION' });
      const query = await t.app.inject({ url: '/api/test/list?limit=20' });
      expect(query.json()).toEqual({ limit: 20 });
      const badQuery = await t.app.inject({ url: '/api/test/list?limit=500' });
      expect(badQuery.statusCode).toBe(400);
      expect(badQuery.json()).toEqual({ detail: 'query parameter limit must be <= 200', code: 'VALIDATION' });
    });

    it('refuses a query number that coerces to Infinity, which Ajv range checks let through', async () => {
      for (const limit of ['1e400', 'Infinity', '-Infinity', '9'.repeat(400)]) {
        const res = await t.app.inject({ url: `/api/test/list?limit=${limit}` });
        expect(res.statusCode, limit).toBe(400);
        expect(res.json()).toEqual({
          detail: 'query parameter limit must be a finite number',
          code: 'VALIDATION',
        });
      }
      const body = await t.app.inject({
        method: 'POST',
        url: '/api/test/orders',
        headers: { 'content-type': 'application/json' },
        payload: '{"amount": 1e400, "direction": "UP"}',
      });
      expect(body.json()).toEqual({ detail: 'amount must be number', code: 'VALIDATION' });
    });

    it('refuses a NUL character, which PostgreSQL text cannot store, in a body or a query', async () => {
      const body = await t.app.inject({
        method: 'POST',
        url: '/api/test/orders',
        headers: { 'content-type': 'application/json' },
        payload: '{"amount": 5, "direction": "UP", "note": "a\\u0000b"}',
      });
      expect(body.json()).toEqual({ detail: 'note must not contain NUL characters', code: 'VALIDATION' });
      const query = await t.app.inject({ url: '/api/test/list?limit=5&note=%00' });
      expect(query.statusCode).toBe(400);
      expect(query.json()).toEqual({
        detail: 'query parameter note must not contain NUL characters',
        code: 'VALIDATION',
      });
    });

    it('judges only the query parameters a route declares, as its OpenAPI document does', async () => {
      // Nothing reads an undeclared parameter, and the document cannot state a rule for it.
      const res = await t.app.inject({ url: '/api/test/list?limit=5&_=%00' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ limit: 5 });
    });

    it('maps a DomainError code through the status table', async () => {
      const res = await t.app.inject({ url: '/api/test/funds' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'Insufficient balance', code: 'INSUFFICIENT_FUNDS' });
    });

    it('answers an unexpected error with a bare 500 and logs the stack', async () => {
      const res = await t.app.inject({ url: '/api/test/crash' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'Internal Server Error', code: 'INTERNAL' });
      expect(res.body).not.toContain('hunter2');
      const logged = t.logs().find((line) => line.msg === 'request failed');
      expect(logged?.level).toBe(50);
      expect((logged?.err as { stack?: string }).stack).toContain('hunter2');
    });

    it('answers malformed JSON with 400', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/orders',
        headers: { 'content-type': 'application/json' },
        payload: '{"amount": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    });

    it('answers unknown API paths with a JSON 404, whatever the Accept header', async () => {
      for (const accept of ['application/json', 'text/html']) {
        const res = await t.app.inject({ url: '/api/x', headers: { accept } });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
      }
      const post = await t.app.inject({ method: 'POST', url: '/api/nope', payload: {} });
      expect(post.statusCode).toBe(404);
      expect(post.json()).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
    });
  });

  describe('console', () => {
    it('serves index.html for client-side routes asked for as HTML', async () => {
      const res = await t.app.inject({
        url: '/trade',
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('Updown console');
      expect(res.headers['cache-control']).toBe('no-cache');
    });

    it('serves the index at / without caching and hashed assets for a year', async () => {
      const index = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
      expect(index.body).toContain('Updown console');
      expect(index.headers['cache-control']).toBe('no-cache');
      const asset = await t.app.inject({ url: '/assets/index-3f2a1b.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const favicon = await t.app.inject({ url: '/favicon.svg' });
      expect(favicon.headers['cache-control']).toBe('no-cache');
    });

    it('sends the pre-compressed copy of an asset to a browser that accepts it', async () => {
      const br = await t.app.inject({
        url: '/assets/index-3f2a1b.js',
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toContain('javascript');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("console");');
      const gzip = await t.app.inject({
        url: '/assets/index-3f2a1b.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log("console");');
      const plain = await t.app.inject({
        url: '/assets/index-3f2a1b.js',
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe('console.log("console");');
    });

    it('does not answer a missing asset or an API path with the index page', async () => {
      const asset = await t.app.inject({ url: '/assets/missing.js', headers: { accept: '*/*' } });
      expect(asset.statusCode).toBe(404);
      const api = await t.app.inject({ url: '/api/nope', headers: { accept: 'text/html' } });
      expect(api.statusCode).toBe(404);
      expect(api.body).not.toContain('Updown console');
      const docs = await t.app.inject({ url: '/docs/missing', headers: { accept: 'text/html' } });
      expect(docs.statusCode).toBe(404);
      const manifest = await t.app.inject({ url: '/.vite/manifest.json' });
      expect(manifest.statusCode).toBe(404);
      expect(manifest.body).not.toContain('assets/');
    });
  });

  describe('headers', () => {
    it('sets security headers with a CSP fit for the console', async () => {
      const res = await t.app.inject({ url: '/healthz' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self';");
      expect(csp).toContain("img-src 'self' data:");
      expect(csp).toContain("connect-src 'self' ws: wss:");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    });

    it('generates a request id and echoes a sane incoming one', async () => {
      const generated = await t.app.inject({ url: '/healthz' });
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const kept = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'edge-4f1c.77' } });
      expect(kept.headers['x-request-id']).toBe('edge-4f1c.77');
      const replaced = await t.app.inject({
        url: '/healthz',
        headers: { 'x-request-id': 'bad id\nwith "quotes"' },
      });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const tooLong = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'a'.repeat(65) } });
      expect(tooLong.headers['x-request-id']).not.toBe('a'.repeat(65));
    });

    it('sends no CORS headers when no origin is configured', async () => {
      const res = await t.app.inject({ url: '/healthz', headers: { origin: 'https://evil.example' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('request logging', () => {
    it('logs one completion line per request, without the query string, and probes at debug', async () => {
      await t.app.inject({
        method: 'POST',
        url: '/api/test/orders?refresh_token=s3cret',
        payload: { amount: 2, direction: 'UP' },
      });
      await t.app.inject({ url: '/healthz' });
      const completed = t.logs().filter((line) => line.msg === 'request completed');
      const order = completed.findLast((line) => line.path === '/api/test/orders');
      expect(order).toMatchObject({ level: 30, method: 'POST', route: '/api/test/orders', statusCode: 200 });
      expect(completed.find((line) => line.path === '/healthz')?.level).toBe(20);
      expect(JSON.stringify(t.logs())).not.toContain('s3cret');
    });
  });
});

describe('gateway app configuration', () => {
  it('serves the placeholder page when the console is not built', async () => {
    const t = testApp({ config: { CONSOLE_DIR: '/nonexistent/console/dist' } });
    try {
      const res = await t.app.inject({ url: '/wallet', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Updown</title>');
      expect(res.body).toContain('href="/docs"');
      const css = await t.app.inject({ url: '/placeholder.css' });
      expect(css.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('allows configured CORS origins only', async () => {
    const t = testApp({ config: { CORS_ORIGINS: ['https://console.example.com'] } });
    try {
      const allowed = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/test',
        headers: { origin: 'https://console.example.com', 'access-control-request-method': 'POST' },
      });
      expect(allowed.statusCode).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://console.example.com');
      const other = await t.app.inject({ url: '/healthz', headers: { origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('answers 503 with the failing checks when readiness fails', async () => {
    const t = testApp({
      readiness: async () => ({ ok: false, checks: { database: true, migrations: 'pending' } }),
    });
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        detail: 'Not ready: migrations',
        code: 'NOT_READY',
        checks: { database: true, migrations: 'pending' },
      });
    } finally {
      await t.close();
    }
  });

  it('reports an unreachable database as not ready without leaking the error', async () => {
    const handle = unreachableDb();
    const { logger } = memoryLogger('silent');
    const t = testApp({ readiness: databaseReadiness(handle.db, logger, []) });
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'NOT_READY', checks: { database: 'unreachable' } });
      expect(res.body).not.toContain('ECONNREFUSED');
    } finally {
      await t.close();
      await handle.close();
    }
  });

  it('limits request bodies', async () => {
    const big: FastifyPluginAsyncTypebox = async (app) => {
      app.post('/api/test/echo', { schema: { body: RequestBody({ text: Type.String() }) } }, async () => ({
        ok: true,
      }));
    };
    const t = testApp({ plugins: [big], config: { BODY_LIMIT_BYTES: 1024 } });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/echo',
        payload: { text: 'x'.repeat(2048) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    } finally {
      await t.close();
    }
  });

  it('refuses to start with a body schema that would accept unknown fields', async () => {
    const loose: FastifyPluginAsyncTypebox = async (app) => {
      app.post(
        '/api/test/loose',
        { schema: { body: Type.Object({ amount: Type.Number() }) } },
        async () => ({}),
      );
    };
    const t = testApp({ plugins: [loose] });
    try {
      await expect(t.app.ready()).rejects.toThrow(
        /POST \/api\/test\/loose: request body objects must set additionalProperties/,
      );
    } finally {
      await t.close().catch(() => undefined);
    }
  });
});
