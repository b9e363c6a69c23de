import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { registerSecurity, securityHeaders } from './security';

/**
 * The security headers are helmet's, read once at start-up and set on every answer: the same set
 * whatever the route, the status or how the answer came about.
 */

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appWithSecurity() {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  apps.push(app);
  registerSecurity(app, []);
  app.get('/ok', async () => ({ ok: true }));
  app.get('/boom', async () => {
    throw new Error('boom');
  });
  // The docs page rewrites the policy it finds on the reply, so the header must be readable there.
  app.get('/policy', async (_request, reply) => ({ policy: reply.getHeader('content-security-policy') }));
  await app.ready();
  return app;
}

describe('security headers', () => {
  it("reads helmet's headers once: the console's policy, framing denied, HSTS, no sniffing", () => {
    const headers = new Map(securityHeaders().set.map(([name, value]) => [name.toLowerCase(), value]));
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp.split(';')).toEqual([
      "default-src 'self'",
      "base-uri 'self'",
      "script-src 'self'",
      "script-src-attr 'none'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self' ws: wss:",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ]);
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it.each([
    ['an answer', '/ok', 200],
    ['an error', '/boom', 500],
    ['a path no route has', '/missing', 404],
  ])('sets every one of them on %s', async (_name, url, status) => {
    const app = await appWithSecurity();
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(status);
    for (const [name, value] of securityHeaders().set) expect(res.headers[name.toLowerCase()]).toBe(value);
  });

  it('lets a route read the policy it is about to send', async () => {
    const app = await appWithSecurity();
    const res = await app.inject({ url: '/policy' });
    expect(res.json<{ policy: string }>().policy).toContain("default-src 'self'");
  });
});
