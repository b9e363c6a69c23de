import { describe, expect, it } from 'vitest';
import { AUTHORIZATION_MATRIX, PRINCIPALS, matchesRoute, matrixGaps } from './authorization-matrix';

describe('the authorization matrix table', () => {
  it('reports a registered route without an entry and an entry without a route, by name', () => {
    const table = { 'GET /healthz': {}, 'GET /api/gone': {} };
    const registered = [
      { method: 'GET', url: '/healthz' },
      { method: 'POST', url: '/api/new-thing' },
    ];
    expect(matrixGaps(registered, table)).toEqual({
      missing: ['POST /api/new-thing'],
      stale: ['GET /api/gone'],
    });
    expect(matrixGaps(registered.slice(0, 1), { 'GET /healthz': {} })).toEqual({ missing: [], stale: [] });
  });

  it('gives every entry a status for each of the nine principals', () => {
    expect(PRINCIPALS).toHaveLength(9);
    for (const [route, entry] of Object.entries(AUTHORIZATION_MATRIX)) {
      expect(Object.keys(entry.expect).sort(), route).toEqual([...PRINCIPALS].sort());
      for (const status of Object.values(entry.expect)) expect(status, route).toBeGreaterThanOrEqual(100);
    }
  });

  it('matches a request path against the route pattern that answers it', () => {
    expect(matchesRoute('/api/trades/:id', '/api/trades/5f0c?x=1')).toBe(true);
    expect(matchesRoute('/api/trades/:id', '/api/trades/active/more')).toBe(false);
    expect(matchesRoute('/api/wallet', '/api/wallet/transactions')).toBe(false);
    expect(matchesRoute('/docs/static/*', '/docs/static/swagger-ui.css')).toBe(true);
    expect(matchesRoute('/docs/json', '/docsXjson')).toBe(false);
    expect(matchesRoute('*', '/anything')).toBe(true);
  });
});
