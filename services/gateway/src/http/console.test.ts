import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createMetricsRegistry } from '@updown/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config';
import { startGateway, type RunningGateway } from '../server';
import { memoryLogger, unreachableDb } from '../testing/test-app';

/**
 * The console as browsers get it from a running gateway, read over a socket on loopback with
 * Node's client (which, unlike fetch, does not decode): the build's brotli copy when brotli is
 * accepted, else its gzip copy, else the file itself, byte for byte; `Vary: accept-encoding` on
 * each; hashed assets cached for a year and the index page (also for a client-side route) never
 * without asking.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';
const BR_FIRST = 'gzip, deflate, br, zstd';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function request(url: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject)
      .end();
  });
}

async function startConsole(
  consoleDir: string,
): Promise<{ gateway: RunningGateway; stop: () => Promise<void> }> {
  const handle = unreachableDb();
  const gateway = await startGateway({
    config: {
      HOST: '127.0.0.1',
      PORT: 0,
      CONSOLE_DIR: consoleDir,
      CORS_ORIGINS: [],
      BODY_LIMIT_BYTES: 1024 * 1024,
    },
    logger: memoryLogger('silent').logger,
    registry: createMetricsRegistry(),
    db: handle.db,
    readiness: async () => ({ ok: true, checks: {} }),
  });
  return {
    gateway,
    stop: async () => {
      await gateway.close();
      await handle.close();
    },
  };
}

/** Checks one file is served as each encoding a browser may accept, with the copies' own bytes. */
async function expectEncodings(url: string, file: string, cacheControl: string, headers = {}) {
  const variants: Array<[string | undefined, string | undefined, string]> = [
    [BR_FIRST, 'br', `${file}.br`],
    ['gzip, deflate', 'gzip', `${file}.gz`],
    [undefined, undefined, file],
    ['identity', undefined, file],
  ];
  for (const [accept, encoding, served] of variants) {
    const res = await request(url, {
      ...headers,
      ...(accept === undefined ? {} : { 'accept-encoding': accept }),
    });
    const what = `${url} with accept-encoding ${accept ?? '(none)'}`;
    expect(res.status, what).toBe(200);
    expect(res.headers['content-encoding'], what).toBe(encoding);
    expect(res.headers.vary, what).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control'], what).toBe(cacheControl);
    expect(res.body.equals(readFileSync(served)), `${what}: the bytes of ${path.basename(served)}`).toBe(
      true,
    );
  }
}

describe('the console, compressed and cached', () => {
  let dir: string;
  let running: Awaited<ReturnType<typeof startConsole>>;
  const base = () => running.gateway.address;
  const file = (...parts: string[]) => path.join(dir, ...parts);

  /** A text file with the build's two copies beside it, as console/vite.config.ts writes them. */
  async function withCopies(relative: string, text: string): Promise<void> {
    await writeFile(file(relative), text);
    await writeFile(file(`${relative}.gz`), gzipSync(text, { level: 9 }));
    await writeFile(file(`${relative}.br`), brotliCompressSync(text));
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'updown-console-compression-'));
    await mkdir(file('assets'));
    const filler = 'x'.repeat(2048);
    await withCopies(
      'index.html',
      `<!doctype html><html><head><title>Updown console</title><script type="module" src="/assets/index-4f3a2b1c.js"></script></head><body><div id="root"><!-- ${filler} --></div></body></html>`,
    );
    await withCopies('assets/index-4f3a2b1c.js', `export const page = ${JSON.stringify(filler)};`);
    await withCopies('assets/index-5e6d7c8b.css', `.loading-screen { content: "${filler}"; }`);
    await withCopies(
      'assets/pdf.worker.min-9a8b7c6d.mjs',
      `self.onmessage = () => ${JSON.stringify(filler)};`,
    );
    await withCopies(
      'assets/logo-1a2b3c4d.svg',
      `<svg xmlns="http://www.w3.org/2000/svg"><desc>${filler}</desc></svg>`,
    );
    await withCopies('assets/strings-0f1e2d3c.json', JSON.stringify({ text: filler }));
    // Fonts are compressed already; small files gain nothing: the build writes no copies of either.
    await writeFile(file('assets', 'inter-7b6a5c4d.woff2'), Buffer.from('wOF2 not really a font'));
    await writeFile(file('assets', 'tiny-2c3d4e5f.js'), 'export {};');
    running = await startConsole(dir);
  });
  afterAll(async () => {
    await running.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['a script', 'assets/index-4f3a2b1c.js', 'javascript'],
    ['a stylesheet', 'assets/index-5e6d7c8b.css', 'text/css'],
    ['the pdf.js worker (.mjs)', 'assets/pdf.worker.min-9a8b7c6d.mjs', 'javascript'],
    ['an image (.svg)', 'assets/logo-1a2b3c4d.svg', 'image/svg+xml'],
    ['JSON', 'assets/strings-0f1e2d3c.json', 'application/json'],
  ])('sends %s as brotli, else gzip, else as it is, cached for a year', async (_what, relative, type) => {
    await expectEncodings(`${base()}/${relative}`, file(relative), IMMUTABLE);
    const res = await request(`${base()}/${relative}`, { 'accept-encoding': BR_FIRST });
    expect(res.headers['content-type']).toContain(type);
  });

  it('sends a font and a file too small to compress as they are, still saying they vary', async () => {
    for (const relative of ['assets/inter-7b6a5c4d.woff2', 'assets/tiny-2c3d4e5f.js']) {
      const res = await request(`${base()}/${relative}`, { 'accept-encoding': BR_FIRST });
      expect(res.status, relative).toBe(200);
      expect(res.headers['content-encoding'], relative).toBeUndefined();
      expect(res.headers.vary, relative).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control'], relative).toBe(IMMUTABLE);
      expect(res.body.equals(readFileSync(file(relative))), relative).toBe(true);
    }
  });

  it('sends the index page compressed and never cached without asking, at / and at a client-side route', async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    await expectEncodings(`${base()}/`, file('index.html'), 'no-cache', html);
    await expectEncodings(`${base()}/trade`, file('index.html'), 'no-cache', html);
    const trade = await request(`${base()}/trade`, { ...html, 'accept-encoding': BR_FIRST });
    expect(trade.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers HEAD with the headers of the copy GET would send', async () => {
    for (const url of ['/trade', '/assets/index-4f3a2b1c.js']) {
      const headers = { accept: 'text/html', 'accept-encoding': BR_FIRST };
      const head = await request(`${base()}${url}`, headers, 'HEAD');
      const get = await request(`${base()}${url}`, headers);
      expect(head.status, url).toBe(200);
      expect(head.body.length, url).toBe(0);
      for (const name of ['content-encoding', 'content-length', 'content-type', 'cache-control', 'vary']) {
        expect(head.headers[name], `${url} ${name}`).toBe(get.headers[name]);
      }
      expect(Number(head.headers['content-length']), url).toBe(get.body.length);
    }
  });
});

const BUILT = path.join(REPO_ROOT, 'console', 'dist');
const built = existsSync(path.join(BUILT, 'index.html'));

describe('the built console (console/dist)', () => {
  let running: Awaited<ReturnType<typeof startConsole>>;

  beforeAll(async () => {
    if (built) running = await startConsole(BUILT);
  });
  afterAll(async () => {
    await running?.stop();
  });

  it.skipIf(!built)(
    'sends every text file of the build as its brotli copy (skipped until `npm run build` has written console/dist)',
    async () => {
      const assets = readdirSync(path.join(BUILT, 'assets'));
      const compressed = assets.filter((name) => assets.includes(`${name}.br`));
      // The entry script and stylesheet at least: a build without copies would be served raw.
      expect(compressed.some((name) => name.endsWith('.js'))).toBe(true);
      expect(compressed.some((name) => name.endsWith('.css'))).toBe(true);
      for (const name of compressed) {
        const res = await request(`${running.gateway.address}/assets/${name}`, {
          'accept-encoding': BR_FIRST,
        });
        expect(res.headers['content-encoding'], name).toBe('br');
        expect(res.headers['cache-control'], name).toBe(IMMUTABLE);
        expect(res.body.equals(readFileSync(path.join(BUILT, 'assets', `${name}.br`))), name).toBe(true);
      }
      const page = await request(`${running.gateway.address}/trade`, {
        accept: 'text/html',
        'accept-encoding': BR_FIRST,
      });
      expect(page.headers['cache-control']).toBe('no-cache');
      if (existsSync(path.join(BUILT, 'index.html.br'))) expect(page.headers['content-encoding']).toBe('br');
    },
  );
});
