import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createDb, createLogger, createMetricsRegistry, type Logger } from '@updown/runtime';
import { buildApp, type GatewayDeps } from '../app';

/** A logger whose JSON lines are kept in memory, so tests can assert what was (not) logged. */
export function memoryLogger(level = 'debug'): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level, name: 'gateway-test', destination });
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/**
 * A pool pointed at a port nothing listens on. It never connects unless used, so app tests that
 * inject a readiness function need no database; the default readiness sees it as unreachable.
 */
export function unreachableDb() {
  return createDb('postgres://updown@127.0.0.1:1/none', { max: 1 });
}

/** A throwaway console build: `index.html` plus one hashed asset, removed by `cleanup()`. */
export async function fakeConsoleDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'updown-console-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Updown console</title></head><body><div id="root"></div></body></html>',
  );
  const script = 'console.log("console");';
  await writeFile(path.join(dir, 'assets', 'index-3f2a1b.js'), script);
  // The copies the console's build writes beside each text file.
  await writeFile(path.join(dir, 'assets', 'index-3f2a1b.js.gz'), gzipSync(script));
  await writeFile(path.join(dir, 'assets', 'index-3f2a1b.js.br'), brotliCompressSync(script));
  await mkdir(path.join(dir, '.vite'));
  await writeFile(
    path.join(dir, '.vite', 'manifest.json'),
    '{"index.html":{"file":"assets/index-3f2a1b.js"}}',
  );
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function testApp(
  overrides: Partial<Omit<GatewayDeps, 'config'>> & { config?: Partial<GatewayDeps['config']> } = {},
) {
  const handle = unreachableDb();
  const { logger, lines } = memoryLogger();
  const registry = createMetricsRegistry();
  const app = buildApp({
    logger,
    registry,
    db: handle.db,
    readiness: async () => ({ ok: true, checks: { database: true, migrations: true } }),
    ...overrides,
    config: {
      CONSOLE_DIR: '/nonexistent',
      CORS_ORIGINS: [],
      BODY_LIMIT_BYTES: 1024 * 1024,
      ...overrides.config,
    },
  });
  return {
    app,
    registry,
    logs: lines,
    async close() {
      await app.close();
      await handle.close();
    },
  };
}
