import { posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorAnswer } from './error-handler';
import type { GatewayInstance } from './instance';
import { escapeJsonForHtml } from './json-escape';
import { answerOf, ROUTE_REJECTED, STATUS_CLIENT_CLOSED, type HttpMetrics } from './metrics';
import { logAnswer, markAbandoned, REQUEST_ID_HEADER } from './request-context';
import { BARE_ERROR_HEADERS } from './security';
import { upgradeStatus } from './websocket';

/**
 * Answers that Fastify's hooks never see, made to leave the same trace as every other answer: one
 * `request completed` log line (status, method, redacted path, request id) and one count in the
 * HTTP metrics. What bypasses the hooks in Fastify 5, and where each is handled:
 * - the router's refusals, given through `frameworkErrors` (a malformed percent-encoding → 400, a
 *   path parameter over `maxParamLength` → 414, a failing async constraint → 500): here;
 * - an HTTP/1.1 request without `Host`, which Node answers itself (400) before emitting it: Node's
 *   check is switched off in app.ts and redone here, inside the lifecycle;
 * - a request whose client left before its answer was complete: no `onResponse` runs, and
 *   Fastify's `onRequestAbort` misses those whose body had been read, so the response's `close`
 *   is watched here;
 * - a WebSocket upgrade: the reply is hijacked and `ws` writes the 101 or its refusal on the
 *   socket; counted here when the socket closes, with the status websocket.ts saw;
 * - what Node's parser refuses (`clientError`), an `Expect` other than 100-continue and `CONNECT`,
 *   which Node answers or drops without Fastify: parser-refusals.ts.
 * The 404 handler is an ordinary route for this purpose: its hooks run and it is logged and
 * counted (route `unmatched`) like any other.
 */

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Fastify's `frameworkErrors`. Fastify's own answer has no security headers, no request id and
 * echoes the path; this one has the strict headers of security.ts, the request id and the API's
 * `{detail, code}` shape, and is logged and counted under the route `rejected`.
 */
export function frameworkErrorAnswer(metrics: HttpMetrics) {
  return function answerFrameworkError(
    error: FastifyError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const startedMs = performance.now();
    const { status, body } = toErrorAnswer(error);
    reply.raw.once('close', () => {
      const durationMs = performance.now() - startedMs;
      const statusCode = reply.raw.headersSent ? reply.statusCode : STATUS_CLIENT_CLOSED;
      metrics.record({ method: request.method, route: ROUTE_REJECTED, statusCode }, durationMs / 1000);
      logAnswer(request.log, {
        method: request.method,
        url: request.raw.url ?? '',
        route: ROUTE_REJECTED,
        statusCode,
        responseTimeMs: durationMs,
        reason: error.code,
      });
    });
    // The detail quotes the path as sent, and onSend hooks (json-escape.ts) do not run here.
    void reply
      .headers(BARE_ERROR_HEADERS)
      .header(REQUEST_ID_HEADER, request.id)
      .code(status)
      .type(JSON_TYPE)
      .send(escapeJsonForHtml(JSON.stringify(body)));
  };
}

/**
 * Node refuses an HTTP/1.1 request without `Host` (RFC 9112 §3.2) before Fastify sees it, unless
 * `requireHostHeader` is off; with it off (app.ts) the same refusal is made here, in the lifecycle.
 * Install on the root after the request id hook. The answer carries the strict headers because
 * helmet's hook, which runs after the root's own, has not run yet.
 */
export function registerHostRequired(app: GatewayInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const { httpVersionMajor, httpVersionMinor, headers } = request.raw;
    if (httpVersionMajor !== 1 || httpVersionMinor !== 1 || headers.host !== undefined) return;
    return reply
      .headers(BARE_ERROR_HEADERS)
      .code(400)
      .type(JSON_TYPE)
      .send({ detail: 'An HTTP/1.1 request needs a Host header', code: 'BAD_REQUEST' });
  });
}

/**
 * Whether a request path is in its plain form: no empty segment (`//`), no `.` or `..` segment,
 * no backslash, also once percent-decoded (`/%2e/`). The router matches paths as sent, so such a
 * path matches no route; the console's file server, which takes every unmatched GET, refuses it
 * with a 403 rather than guess which file it means.
 */
export function isPlainPath(url: string): boolean {
  const query = url.indexOf('?');
  const raw = query === -1 ? url : url.slice(0, query);
  // The common case, answered without decoding: nothing that could hide a segment.
  if (!/\/\/|\/\.|\\|%/.test(raw)) return true;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // The router answers a malformed percent-encoding itself (400) before any hook runs.
  }
  return !decoded.includes('\\') && posix.normalize(decoded) === decoded;
}

/**
 * A path that is not in its plain form (`//metrics`, `/./metrics`, `/a/../metrics`) names nothing
 * the gateway serves: it is answered as every unknown path is, 404 `NOT_FOUND`, instead of the
 * file server's 403, which would tell a scanner that something is there. Install on the root
 * after the request id hook; the answer carries the strict headers, as helmet has not run yet.
 */
export function registerPlainPaths(app: GatewayInstance): void {
  // A callback hook, not an async one: it runs on every request and awaits nothing.
  app.addHook('onRequest', (request, reply, done) => {
    if (isPlainPath(request.raw.url ?? '/')) {
      done();
      return;
    }
    void reply
      .headers(BARE_ERROR_HEADERS)
      .code(404)
      .type(JSON_TYPE)
      .send({ detail: 'Not Found', code: 'NOT_FOUND' });
  });
}

/**
 * Two kinds of request end with the response's `close` and no `onResponse`, so nothing would be
 * logged or counted:
 * - a client that leaves before its answer is complete (a closed tab, a proxy timing out): logged
 *   as `request aborted` and counted with the status that went out, or 499 when none did;
 * - an upgrade, whose reply `@fastify/websocket` hijacks and whose 101 (or refusal) `ws` writes on
 *   the socket: logged as `request completed` when the socket closes, so with the session's length,
 *   and counted with the handshake's status (websocket.ts).
 * Install first on the root.
 */
export function registerAbandonedRequests(app: GatewayInstance, metrics: HttpMetrics): void {
  // A callback hook, not an async one: it runs on every request and awaits nothing.
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.once('close', () => {
      // Sent and ended: onResponse has it. Hijacked and not an upgrade: its owner answers for it.
      if (reply.raw.writableEnded) return;
      const upgraded = upgradeStatus(request);
      if (reply.sent && upgraded === undefined) return;
      markAbandoned(request);
      const sentStatus = reply.raw.headersSent ? reply.statusCode : STATUS_CLIENT_CLOSED;
      const statusCode = upgraded ?? sentStatus;
      const answer = answerOf(request, statusCode);
      if (answer.route !== '/metrics') metrics.record(answer, reply.elapsedTime / 1000);
      logAnswer(
        request.log,
        {
          method: request.method,
          url: request.raw.url ?? request.url,
          route: answer.route,
          statusCode,
          responseTimeMs: reply.elapsedTime,
        },
        upgraded === undefined ? 'request aborted' : 'request completed',
      );
    });
    done();
  });
}
