import { afterEach, describe, expect, it } from 'vitest';
import { testApp } from '../testing/test-app';

/**
 * `API_DOCS` decides whether `/docs` serves the API's documents (README "Configuration"): public
 * by default, and with `off` every docs path is an unknown path, while the document is still
 * built in the process for `npm run api:types`.
 */

const DOCS_PATHS = [
  '/docs',
  '/docs/',
  '/docs/json',
  '/docs/yaml',
  '/docs/static/swagger-ui.css',
  '/docs/asyncapi/market-ws.json',
];

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

function appWithDocs(mode: 'public' | 'off' | undefined) {
  const t = testApp({ config: mode === undefined ? {} : { API_DOCS: mode } });
  close = () => t.close();
  return t.app;
}

describe('API_DOCS', () => {
  it.each([['public'], [undefined]] as const)(
    'serves the page and both documents with API_DOCS=%s (public is the default)',
    async (mode) => {
      const app = appWithDocs(mode);
      for (const url of DOCS_PATHS) {
        expect((await app.inject({ url })).statusCode, url).toBeLessThan(400);
      }
      expect((await app.inject({ url: '/docs/json' })).json()).toMatchObject({ openapi: '3.0.3' });
    },
  );

  it('answers every docs path as an unknown path when off, browsers included', async () => {
    const app = appWithDocs('off');
    for (const url of DOCS_PATHS) {
      for (const accept of ['application/json', 'text/html']) {
        const res = await app.inject({ url, headers: { accept } });
        expect(res.statusCode, `${url} (${accept})`).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
      }
    }
    // The API itself is unchanged, and the process still builds the document.
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await app.ready();
    const doc = app.swagger() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toContain('/healthz');
  });
});
