import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import type { Database } from './db/schema';

export interface OpsServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * `/healthz`, `/readyz` and `/metrics` for a service running alone without an HTTP API of its own
 * (price-ingest, settlement). In the single process the gateway serves the shared registry
 * instead, and this server is not started.
 */
export async function startOpsServer(options: {
  host: string;
  port: number;
  registry: Registry;
  db: Kysely<Database>;
}): Promise<OpsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const reply = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (request.method !== 'GET')
      return reply(405, 'application/json', '{"detail":"Method Not Allowed","code":"METHOD_NOT_ALLOWED"}');
    if (path === '/healthz') return reply(200, 'application/json', '{"status":"ok"}');
    if (path === '/readyz') {
      sql`select 1`.execute(options.db).then(
        () => reply(200, 'application/json', '{"status":"ok"}'),
        () => reply(503, 'application/json', '{"detail":"Not ready: database","code":"NOT_READY"}'),
      );
      return;
    }
    if (path === '/metrics') {
      options.registry.metrics().then(
        (body) => reply(200, options.registry.contentType, body),
        () => reply(500, 'application/json', '{"detail":"Internal Server Error","code":"INTERNAL"}'),
      );
      return;
    }
    reply(404, 'application/json', '{"detail":"Not Found","code":"NOT_FOUND"}');
  });
  // Probes and scrapes only: short limits so an idle or slow client cannot hold a socket.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
