import type { FastifyPluginAsync } from 'fastify';
import { DomainError } from '@updown/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../testing/test-app';
import { escapeJsonForHtml } from './json-escape';

describe('escapeJsonForHtml', () => {
  it('keeps the value and drops the markup', () => {
    const value = { name: '<script>alert("x")</script> & \u2028', nested: ['a>b', '\\<'] };
    const escaped = escapeJsonForHtml(JSON.stringify(value));
    expect(escaped).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(escaped)).toEqual(value);
  });
});

const echoRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/test/echo', async (request) => ({ said: (request.query as { q: string }).q }));
  app.post('/api/test/items/:id', async () => ({ ok: true }));
  app.get('/api/test/refuse', async (request) => {
    throw new DomainError('VALIDATION', `Unknown pair: ${(request.query as { q: string }).q}`);
  });
};

describe('JSON answers of the gateway', () => {
  const t = testApp({ plugins: [echoRoutes] });
  beforeAll(() => t.app.ready());
  afterAll(() => t.close());

  it('carry no raw markup, in answers and in errors, and still parse to what was said', async () => {
    const q = encodeURIComponent('<script>alert(1)</script>&');
    for (const url of [`/api/test/echo?q=${q}`, `/api/test/refuse?q=${q}`]) {
      const res = await t.app.inject({ url });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).not.toMatch(/[<>&]/);
      expect(res.body).toContain('\\u003cscript\\u003e');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
      expect(JSON.stringify(res.json())).toContain('<script>alert(1)</script>&');
    }
  });

  it('escape the path Fastify quotes when it refuses an over-long parameter before routing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/test/items/${encodeURIComponent('<script>'.repeat(20))}`,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.toLowerCase()).not.toContain('<script');
    expect(typeof res.json<{ detail: unknown }>().detail).toBe('string');
  });
});
