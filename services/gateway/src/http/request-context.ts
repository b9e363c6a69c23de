import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from '@updown/runtime';
import type { GatewayInstance } from './instance';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids from a proxy or client are kept for tracing, but only short plain tokens: no log injection. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Probes and scrapes arrive every few seconds; at info they would drown the requests that matter. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

function isQuiet(request: FastifyRequest): boolean {
  return QUIET_ROUTES.has(request.routeOptions.url ?? '');
}

/**
 * The path without its query string, and the URL with every credential in its query redacted:
 * some calls carry secrets in the query (`POST /api/auth/refresh?refresh_token=…`), which must
 * never reach a log line, whatever the route.
 */
function requestLocation(request: FastifyRequest): { path: string; url: string } {
  const url = request.raw.url ?? request.url;
  const end = url.indexOf('?');
  return { path: end === -1 ? url : url.slice(0, end), url: redactUrl(url) };
}

/**
 * One line per finished request (`request completed`, with method, path, route pattern, status and
 * duration); the `incoming request` line is only written at debug. Probe routes log at debug.
 */
export class GatewayLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, ...requestLocation(request) }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const fields = {
      method: request.method,
      ...requestLocation(request),
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (isQuiet(request)) reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }

  override routeNotFound(): void {
    // The completion line already records the 404; a second line per miss is noise.
  }
}

/** Echoes the request id so a client or proxy can quote it when reporting a problem. */
export function registerRequestId(app: GatewayInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
