import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyRequest } from 'fastify';
import type { GatewayInstance } from './instance';
import type { ErrorResponse } from '@updown/schemas/api';
import { DOCS_PREFIX } from './docs';

/** Paths the console never owns: a miss there is a JSON 404, never the console's index page. */
const SERVER_PREFIXES = ['/api/', DOCS_PREFIX];
const SERVER_PATHS = new Set(['/api', '/metrics', '/healthz', '/readyz']);

const NOT_FOUND: ErrorResponse = { detail: 'Not Found', code: 'NOT_FOUND' };

/** Vite writes content-hashed file names under `assets/`: safe to cache for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface ConsoleSource {
  root: string;
  placeholder: boolean;
}

/** The built console when it has an `index.html`, else the placeholder page shipped in the repo. */
export function resolveConsoleRoot(consoleDir: string, placeholderDir: string): ConsoleSource {
  return existsSync(path.join(consoleDir, 'index.html'))
    ? { root: consoleDir, placeholder: false }
    : { root: placeholderDir, placeholder: true };
}

function isServerPath(pathname: string): boolean {
  return SERVER_PATHS.has(pathname) || SERVER_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/**
 * A browser navigating to a client-side route (`/trade`, `/admin`) gets the console's index page
 * and the console's router takes over. Only real navigations qualify (GET/HEAD asking for HTML),
 * so a missing script or image is a 404 rather than HTML that fails to parse as JavaScript.
 */
function wantsConsolePage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = (request.raw.url ?? '/').split('?')[0] ?? '/';
  if (isServerPath(pathname)) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

export function registerConsole(app: GatewayInstance, source: ConsoleSource): void {
  void app.register(fastifyStatic, {
    root: source.root,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    // The console's build writes a gzip and a brotli copy beside each text file (see its
    // vite.config.ts): sent as they are to browsers that accept them, the original to the rest.
    preCompressed: true,
    // The build's own records (Vite's manifest under `.vite/`) are for its tests, not for browsers.
    dotfiles: 'ignore',
    cacheControl: false,
    setHeaders(reply, filePath) {
      const relative = path.relative(source.root, filePath).split(path.sep);
      reply.header('cache-control', relative[0] === 'assets' ? IMMUTABLE : 'no-cache');
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    if (wantsConsolePage(request)) return reply.sendFile('index.html');
    return reply.code(404).type('application/json; charset=utf-8').send(NOT_FOUND);
  });
}
