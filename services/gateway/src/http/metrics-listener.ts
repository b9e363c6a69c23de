import type { AddressInfo } from 'node:net';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Logger, Registry } from '@updown/runtime';
import { registerErrorHandler } from './error-handler';
import { registerMetricsRoute } from './metrics';
import { GatewayLogController, genReqId, registerRequestId } from './request-context';

export interface MetricsListener {
  /** `http://host:port` actually bound (useful with `METRICS_PORT=0`). */
  readonly address: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Scrapes are small and quick: a client holding a socket longer is cut off. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * `/metrics` on a listener of its own (`METRICS_PORT`), for deployments that keep the scrape off
 * the public port rather than behind a token (or both: the token still applies here). It answers
 * nothing else: every other path is a 404 in the API's shape.
 */
export async function startMetricsListener(options: {
  host: string;
  port: number;
  registry: Registry;
  logger: Logger;
  token: string | undefined;
}): Promise<MetricsListener> {
  const app = Fastify({
    // See app.ts: pino's Logger is wider than Fastify's base logger type.
    loggerInstance: options.logger as FastifyBaseLogger,
    logController: new GatewayLogController(),
    genReqId,
    forceCloseConnections: true,
    requestTimeout: REQUEST_TIMEOUT_MS,
  }).withTypeProvider<TypeBoxTypeProvider>();
  registerErrorHandler(app);
  registerRequestId(app);
  registerMetricsRoute(app, options.registry, options.token);
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).type('application/json; charset=utf-8').send({ detail: 'Not Found', code: 'NOT_FOUND' }),
  );
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { address: `http://${host}:${port}`, port, close: () => app.close() };
}
